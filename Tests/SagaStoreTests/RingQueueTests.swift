import SagaStore
import Testing

/// `RingQueue` keeps its elements in memory it manages: every element must come out once, in
/// order, whatever the wrapping and growing, and be destroyed once, when popped or when the
/// queue goes, never as an empty slot.
@Suite struct RingQueueTests {
    /// Counts how many of its instances are alive.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    @Test func isFirstInFirstOutAcrossWrappingAndGrowth() {
        let queue = RingQueue<Int>()
        for i in 0..<6 { queue.append(i) }
        #expect(queue.popFirst() == 0)
        #expect(queue.popFirst() == 1)
        // Wraps past the end of the first 8 slots, then grows while wrapped.
        for i in 6..<40 { queue.append(i) }
        queue.prepend(1)
        #expect(Array(queue) == Array(1..<40))
        #expect(queue.popLast() == 39)
        var out: [Int] = []
        while let x = queue.popFirst() { out.append(x) }
        #expect(out == Array(1..<39))
        #expect(queue.isEmpty && queue.popFirst() == nil && queue.popLast() == nil)
    }

    @Test func prependWrapsToTheBack() {
        let queue = RingQueue<Int>()
        queue.prepend(2)
        queue.prepend(1)
        queue.append(3)
        queue.prepend(0)
        #expect(Array(queue) == [0, 1, 2, 3])
        #expect(queue.count == 4)
        #expect(queue.allSatisfy { $0 < 4 })
    }

    @Test func swappingContentsExchangesElementsAndOrder() {
        let a = RingQueue<Int>()
        let b = RingQueue<Int>()
        for i in 0..<10 { a.append(i) }
        b.append(100)
        a.swapContents(with: b)
        #expect(Array(a) == [100])
        #expect(Array(b) == Array(0..<10))
        b.append(10)
        #expect(b.count == 11 && b.popLast() == 10)
    }

    @Test func elementsAreDestroyedOnceWhenPoppedRemovedOrFreed() {
        let before = Tracked.alive
        do {
            let queue = RingQueue<Tracked>()
            // Wrapped and grown, so that the elements left lie in two segments.
            for i in 0..<6 { queue.append(Tracked(i)) }
            for _ in 0..<5 { _ = queue.popFirst() }
            for i in 6..<20 { queue.append(Tracked(i)) }
            #expect(Tracked.alive - before == 15)
            #expect(queue.popLast()?.value == 19)
            #expect(Tracked.alive - before == 14)
            queue.removeAll()
            #expect(Tracked.alive == before)
            for i in 0..<12 { queue.prepend(Tracked(i)) }
            #expect(Tracked.alive - before == 12)
        }
        #expect(Tracked.alive == before, "freeing the queue destroyed what it held, once")
    }
}
