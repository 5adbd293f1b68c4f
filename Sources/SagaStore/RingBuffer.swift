/// A FIFO queue over a growable ring: O(1) append and removal at the front, no shifting.
/// (Removing from the front of an array is what makes some saga runtimes quadratic.)
///
/// A value: a copy-on-write wrapper around a ``RingQueue``, which holds the elements. An owner
/// that never copies its queue can hold the ``RingQueue`` itself and skip the uniqueness check
/// each change makes here.
public struct RingBuffer<Element> {
    @usableFromInline var queue: RingQueue<Element>

    /// An empty queue.
    @inlinable public init() {
        queue = RingQueue()
    }

    /// The number of elements.
    @inlinable public var count: Int { queue.count }

    /// `true` when there are no elements.
    @inlinable public var isEmpty: Bool { queue.isEmpty }

    /// The front element, or `nil` when empty.
    @inlinable public var first: Element? { queue.first }

    /// Makes ``queue`` this value's own before a change.
    @inlinable mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&queue) { queue = queue.copy() }
    }

    /// Adds an element at the back.
    @inlinable public mutating func append(_ element: consuming Element) {
        makeUnique()
        queue.append(element)
    }

    /// Adds an element at the front.
    @inlinable public mutating func prepend(_ element: consuming Element) {
        makeUnique()
        queue.prepend(element)
    }

    /// Removes and returns the front element, or `nil` when empty.
    @inlinable public mutating func popFirst() -> Element? {
        if queue.isEmpty { return nil }
        makeUnique()
        return queue.popFirst()
    }

    /// Removes and returns the back element, or `nil` when empty.
    @inlinable public mutating func popLast() -> Element? {
        if queue.isEmpty { return nil }
        makeUnique()
        return queue.popLast()
    }

    /// Adds `elements` at the back, in order.
    @inlinable public mutating func append(contentsOf elements: some Sequence<Element>) {
        makeUnique()
        queue.append(contentsOf: elements)
    }

    /// Removes every element, and the room they took.
    @inlinable public mutating func removeAll() {
        queue = RingQueue()
    }
}

extension RingBuffer: Sequence {
    /// Iterates front to back, over the elements as they were when it began.
    @inlinable public func makeIterator() -> RingQueue<Element>.Iterator {
        queue.makeIterator()
    }
}
