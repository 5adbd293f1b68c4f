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

    /// A queue of `elements`, first to last.
    @inlinable public init(_ elements: [Element]) {
        storage = elements.map { $0 }
        storedCount = elements.count
    }

    /// `true` when there are no elements.
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// Adds an element at the back.
    @inlinable public mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        var index = head + count
        if index >= storage.count { index -= storage.count }
        storage[index] = element
        storedCount += 1
    }

    /// Adds an element at the front.
    @inlinable public mutating func prepend(_ element: Element) {
        if count == storage.count { grow() }
        head -= 1
        if head < 0 { head += storage.count }
        storage[head] = element
        storedCount += 1
    }

    /// Removes and returns the front element, or `nil` when empty.
    @inlinable public mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count { head = 0 }
        storedCount -= 1
        return element
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

    @usableFromInline mutating func grow() {
        let newCapacity = Swift.max(8, storage.count * 2)
        var grown: [Element?] = []
        grown.reserveCapacity(newCapacity)
        for i in 0..<count {
            var index = head + i
            if index >= storage.count { index -= storage.count }
            grown.append(storage[index])
        }
        grown.append(contentsOf: repeatElement(nil, count: newCapacity - count))
        storage = grown
        head = 0
    }
}

extension RingBuffer: Sequence {
    /// Iterates front to back.
    public func makeIterator() -> AnyIterator<Element> {
        var i = 0
        let copy = self
        return AnyIterator {
            guard i < copy.count else { return nil }
            var index = copy.head + i
            if index >= copy.storage.count { index -= copy.storage.count }
            i += 1
            return copy.storage[index]
        }
    }
}
