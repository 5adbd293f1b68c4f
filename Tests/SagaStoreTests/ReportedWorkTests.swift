import Dispatch
import SagaStore
import Synchronization
import Testing

/// ``AsyncWorkScheduler/schedule(reporting:)`` on a scheduler that only knows `schedule(_:)`
/// (the default implementation): the work starts at once, and the actions it reports later,
/// from another thread, are delivered as a `Task`'s would be.
@Suite struct ReportedWorkTests {
    @Test(.timeLimit(.minutes(5)))
    func reportedActionsReachTheStoreThroughTheDefaultImplementation() async {
        let queue = DispatchQueue(label: "store")
        let scheduler = QueueWorkScheduler<String>(queue: queue)
        let delivered = Mutex<[String]>([])
        let done = AsyncStream<Void>.makeStream()
        scheduler.deliver = { action in
            let count = delivered.withLock { d -> Int in
                d.append(action)
                return d.count
            }
            if count == 2 { done.continuation.yield() }
        }
        let started = Mutex(false)
        scheduler.schedule(reporting: { finish in
            started.withLock { $0 = true }
            DispatchQueue.global().async { finish(["saved", "refreshed"]) }
        })
        #expect(started.withLock { $0 })
        var iterator = done.stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(delivered.withLock { $0 } == ["saved", "refreshed"])
    }

    /// Work that finishes backwards is still delivered in the order it was started.
    @Test(.timeLimit(.minutes(3)))
    func resultsAreDeliveredInTheOrderTheWorkStarted() async {
        let queue = DispatchQueue(label: "store")
        let scheduler = QueueWorkScheduler<Int>(queue: queue)
        let delivered = Mutex<[Int]>([])
        let done = AsyncStream<Void>.makeStream()
        scheduler.deliver = { action in
            let count = delivered.withLock { d -> Int in
                d.append(action)
                return d.count
            }
            if count == 20 { done.continuation.yield() }
        }
        for n in 0..<20 {
            scheduler.schedule {
                for _ in 0..<(20 - n) * 5 { await Task.yield() }
                return [n]
            }
        }
        var iterator = done.stream.makeAsyncIterator()
        _ = await iterator.next()
        #expect(delivered.withLock { $0 } == Array(0..<20))
    }
}
