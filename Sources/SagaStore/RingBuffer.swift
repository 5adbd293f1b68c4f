/// A FIFO queue over a growable ring: O(1) append and removal at the front, no shifting.
/// (Removing from the front of an array is what makes some saga runtimes quadratic.)
public struct RingBuffer<Element> {
    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline var storedCount = 0

    /// The number of elements.
    @inlinable public var count: Int { storedCount }

    /// An empty queue.
    @inlinable public init() {}

    /// `true` when there are no elements.
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// Adds an element at the back.
    @inlinable public mutating func append(_ element: consuming Element) {
        if count == storage.count { grow() }
        var index = head + count
        if index >= storage.count { index -= storage.count }
        storage[index] = element
        storedCount += 1
    }

    /// Adds an element at the front.
    @inlinable public mutating func prepend(_ element: consuming Element) {
        if count == storage.count { grow() }
        head -= 1
        if head < 0 { head += storage.count }
        storage[head] = element
        storedCount += 1
    }

    /// Removes and returns the front element, or `nil` when empty.
    @inlinable public mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count { head = 0 }
        storedCount -= 1
        return element
    }

    /// Removes and returns the back element, or `nil` when empty.
    @inlinable public mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        var index = head + count - 1
        if index >= storage.count { index -= storage.count }
        let element = storage[index].take()
        storedCount -= 1
        return element
    }

    /// Adds `elements` at the back, in order.
    @inlinable public mutating func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// The front element, or `nil` when empty.
    @inlinable public var first: Element? {
        count > 0 ? storage[head] : nil
    }

    /// Removes every element.
    @inlinable public mutating func removeAll() {
        storage = []
        head = 0
        storedCount = 0
    }

    /// Doubles the ring. Inlinable, so that a client's queue grows in code specialised for its
    /// elements: from this module, each element moved went through `Optional<Element>`'s
    /// generic metadata, looked up at run time (callgrind, fork-wake: 700 instructions a task,
    /// the million wake-ups filling the run queue).
    @inlinable mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        // Filled by `init(repeating:count:)` and moved into, element by element:
        // `append(contentsOf: repeatElement(nil, …))` ran generic, unspecialised code per
        // element, which a million wake-ups made a quarter of `fork-wake` (callgrind).
        var grown = [Element?](repeating: nil, count: newCapacity)
        for i in 0..<count {
            var index = head + i
            if index >= storage.count { index -= storage.count }
            swap(&grown[i], &storage[index])
        }
        storage = grown
        head = 0
    }
}

extension RingBuffer: Sequence {
    /// Iterates front to back.
    ///
    /// A concrete iterator: an `AnyIterator` boxed a closure per iteration, a thousand
    /// instructions to look at one element (callgrind, every-select-put).
    public struct Iterator: IteratorProtocol {
        @usableFromInline let buffer: RingBuffer
        @usableFromInline var offset = 0

        @inlinable init(buffer: RingBuffer) {
            self.buffer = buffer
        }

        /// The next element from the front, or `nil` after the last.
        @inlinable public mutating func next() -> Element? {
            guard offset < buffer.count else { return nil }
            var index = buffer.head + offset
            if index >= buffer.storage.count { index -= buffer.storage.count }
            offset += 1
            return buffer.storage[index]
        }
    }

    /// An iterator over the elements, front to back.
    @inlinable public func makeIterator() -> Iterator {
        Iterator(buffer: self)
    }
}
