/// A FIFO queue over a growable ring, as ``RingBuffer`` is, but a class: for a queue that one
/// owner keeps and never copies (the interpreter's run queues).
///
/// Being one object, it needs no copy-on-write: an append or a pop does not first check that
/// its storage is unshared, a call into the runtime each. Its slots hold elements, initialised
/// on the way in and moved out on the way out, where ``RingBuffer``'s hold optionals, each
/// write destroying the `nil` it replaces. Freed, or grown, it touches only the elements it
/// holds: an array of a million optionals is destroyed slot by slot through their generic
/// witness.
///
/// ```swift
/// let queue = RingQueue<Int>()
/// queue.append(1)
/// queue.prepend(0)
/// queue.popFirst()   // 0
/// ```
public final class RingQueue<Element> {
    /// `capacity` slots, of which the `storedCount` from `head` on (wrapping) are initialised.
    ///
    /// Unchecked for exclusivity: only the owner's thread reaches them, one call at a time,
    /// and the dynamic checks cost more than the operations.
    @exclusivity(unchecked) @usableFromInline var slots: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) @usableFromInline var capacity = 0
    @exclusivity(unchecked) @usableFromInline var head = 0
    @exclusivity(unchecked) @usableFromInline var storedCount = 0

    /// An empty queue.
    @inlinable public convenience init() {
        self.init(capacity: 0)
    }

    /// An empty queue with room for `capacity` elements.
    @inlinable init(capacity: Int) {
        slots = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit {
        removeAll()
        slots.deallocate()
    }

    /// The number of elements.
    @inlinable public var count: Int { storedCount }

    /// `true` when there are no elements.
    @inlinable public var isEmpty: Bool { storedCount == 0 }

    /// How many elements run from ``head`` to the end of the slots, and how many wrap around
    /// to the start.
    @inlinable var liveSegments: (front: Int, back: Int) {
        let front = Swift.min(storedCount, capacity &- head)
        return (front, storedCount &- front)
    }

    /// Adds an element at the back.
    @inlinable public func append(_ element: consuming Element) {
        if storedCount == capacity { grow() }
        var index = head &+ storedCount
        if index >= capacity { index &-= capacity }
        (slots + index).initialize(to: element)
        storedCount &+= 1
    }

    /// Adds `elements` at the back, in order.
    @inlinable public func append(contentsOf elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// Adds an element at the front.
    @inlinable public func prepend(_ element: consuming Element) {
        if storedCount == capacity { grow() }
        head = head == 0 ? capacity &- 1 : head &- 1
        (slots + head).initialize(to: element)
        storedCount &+= 1
    }

    /// Removes and returns the front element, or `nil` when empty.
    @inlinable public func popFirst() -> Element? {
        guard storedCount > 0 else { return nil }
        let element = (slots + head).move()
        head &+= 1
        if head == capacity { head = 0 }
        storedCount &-= 1
        return element
    }

    /// Removes and returns the back element, or `nil` when empty.
    @inlinable public func popLast() -> Element? {
        guard storedCount > 0 else { return nil }
        var index = head &+ storedCount &- 1
        if index >= capacity { index &-= capacity }
        storedCount &-= 1
        return (slots + index).move()
    }

    /// The front element, or `nil` when empty.
    @inlinable public var first: Element? {
        storedCount > 0 ? slots[head] : nil
    }

    /// A new queue holding copies of the elements, in order, with as much room.
    @inlinable public func copy() -> RingQueue {
        let copy = RingQueue(capacity: capacity)
        let (front, back) = liveSegments
        copy.slots.initialize(from: slots + head, count: front)
        (copy.slots + front).initialize(from: slots, count: back)
        copy.storedCount = storedCount
        return copy
    }

    /// Removes every element, keeping the room they took.
    @inlinable public func removeAll() {
        let (front, back) = liveSegments
        (slots + head).deinitialize(count: front)
        slots.deinitialize(count: back)
        head = 0
        storedCount = 0
    }

    /// Exchanges this queue's elements (and room) with `other`'s: what swapping two arrays
    /// does, for queues held in `let`s (a queue in a variable is retained and released around
    /// each use).
    @inlinable public func swapContents(with other: RingQueue) {
        swap(&slots, &other.slots)
        swap(&capacity, &other.capacity)
        swap(&head, &other.head)
        swap(&storedCount, &other.storedCount)
    }

    /// Doubles the room (to 8 at first), moving the elements to its start, in order.
    ///
    /// Inlinable, so that the elements move in code specialised for them.
    @inlinable func grow() {
        let newCapacity = Swift.max(8, capacity &* 2)
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        let (front, back) = liveSegments
        bigger.moveInitialize(from: slots + head, count: front)
        (bigger + front).moveInitialize(from: slots, count: back)
        slots.deallocate()
        slots = bigger
        capacity = newCapacity
        head = 0
    }
}

extension RingQueue: Sequence {
    /// Iterates front to back; the queue must not change meanwhile.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let queue: RingQueue
        @usableFromInline var offset = 0

        @inlinable init(queue: RingQueue) {
            self.queue = queue
        }

        /// The next element from the front, or `nil` after the last.
        @inlinable public mutating func next() -> Element? {
            guard offset < queue.storedCount else { return nil }
            var index = queue.head &+ offset
            if index >= queue.capacity { index &-= queue.capacity }
            offset &+= 1
            return queue.slots[index]
        }
    }

    /// An iterator over the elements, front to back.
    @inlinable public func makeIterator() -> Iterator {
        Iterator(queue: self)
    }
}
