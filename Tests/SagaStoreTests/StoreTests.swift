import SagaStore
import Testing

@Suite struct StoreTests {
    enum Action: Equatable {
        case add(Int)
        case echo(Int)
    }

    @Test func reducerAppliesEachAction() {
        let store = Store(initialState: 0) { (state: inout Int, action: Action) in
            if case .add(let n) = action { state += n }
        }
        store.dispatch(.add(2))
        store.dispatch(.add(3))
        #expect(store.state == 5)
    }

    @Test func middlewareRunsOutermostFirstAndSeesTheStateAfterNext() {
        var log: [String] = []
        let outer = Middleware<Int, Action> { api, next in
            { action in
                log.append("outer before \(api.state)")
                next(action)
                log.append("outer after \(api.state)")
            }
        }
        let inner = Middleware<Int, Action> { _, next in
            { action in
                log.append("inner")
                next(action)
            }
        }
        let store = Store(
            initialState: 0,
            reducer: { (state: inout Int, action: Action) in if case .add(let n) = action { state += n } },
            middleware: [outer, inner])
        store.dispatch(.add(1))
        #expect(log == ["outer before 0", "inner", "outer after 1"])
    }

    @Test func aDispatchDuringProcessingIsQueuedBehindTheCurrentAction() {
        var seen: [Action] = []
        let echo = Middleware<Int, Action> { api, next in
            { action in
                seen.append(action)
                if case .echo(let n) = action { api.dispatch(.add(n)) }
                // The queued action must not have been processed yet.
                seen.append(.add(-1))
                next(action)
            }
        }
        let store = Store(
            initialState: 0,
            reducer: { (state: inout Int, action: Action) in if case .add(let n) = action, n > 0 { state += n } },
            middleware: [echo])
        store.dispatch(.echo(7))
        #expect(seen == [.echo(7), .add(-1), .add(7), .add(-1)])
        #expect(store.state == 7)
    }

    @Test func subscribersAreCalledInTheOrderTheySubscribed() {
        let store = Store(initialState: 0) { (state: inout Int, action: Action) in
            if case .add(let n) = action { state += n }
        }
        var calls: [String] = []
        for name in ["a", "b", "c", "d", "e", "f", "g", "h"] { store.subscribe { _ in calls.append(name) } }
        let token = store.subscribe { _ in calls.append("x") }
        store.subscribe { _ in calls.append("z") }
        store.unsubscribe(token)
        store.dispatch(.add(1))
        #expect(calls == ["a", "b", "c", "d", "e", "f", "g", "h", "z"])
    }

    @Test func subscribersSeeEachNewStateUntilTheyUnsubscribe() {
        let store = Store(initialState: 0) { (state: inout Int, action: Action) in
            if case .add(let n) = action { state += n }
        }
        var states: [Int] = []
        let token = store.subscribe { states.append($0) }
        store.dispatch(.add(1))
        store.dispatch(.add(1))
        store.unsubscribe(token)
        store.dispatch(.add(1))
        #expect(states == [1, 2])
    }

    /// Idle observers run once per outermost dispatch, after everything it queued, in the order
    /// they were added; a removed one no longer runs.
    @Test func idleObserversRunOncePerDispatchUntilRemoved() {
        var log: [String] = []
        // `echo` dispatches an `add` while the store is busy: queued, and processed before the
        // store is idle.
        let echo = Middleware<Int, Action> { api, next in
            { action in
                next(action)
                if case .echo(let n) = action { api.dispatch(.add(n)) }
            }
        }
        let store = Store<Int, Action>(
            initialState: 0,
            reducer: { state, action in if case .add(let n) = action { state += n } },
            middleware: [echo])
        // Unowned: the store keeps its observers, which must not keep it.
        let first = store.whenIdle { [unowned store] in log.append("first \(store.state)") }
        store.whenIdle { [unowned store] in log.append("second \(store.state)") }
        store.dispatch(.echo(2))
        #expect(log == ["first 2", "second 2"])

        store.removeIdleObserver(first)
        store.dispatch(.add(1))
        #expect(log == ["first 2", "second 2", "second 3"])
    }
}

@Suite struct RingBufferTests {
    @Test func isFirstInFirstOutAcrossGrowth() {
        var ring = RingBuffer<Int>()
        for i in 0..<5 { ring.append(i) }
        #expect(ring.popFirst() == 0)
        #expect(ring.popFirst() == 1)
        for i in 5..<40 { ring.append(i) }
        var out: [Int] = []
        while let x = ring.popFirst() { out.append(x) }
        #expect(out == Array(2..<40))
        #expect(ring.isEmpty)
    }

    @Test func isAValueWhoseCopiesChangeApart() {
        var ring = RingBuffer<Int>()
        for i in 0..<10 { ring.append(i) }
        _ = ring.popFirst()
        var copy = ring
        copy.append(10)
        copy.prepend(0)
        #expect(Array(ring) == Array(1..<10))
        #expect(Array(copy) == Array(0...10))
        // An iteration sees the elements as they were when it began.
        var seen: [Int] = []
        for x in ring {
            seen.append(x)
            ring.append(x)
        }
        #expect(seen == Array(1..<10))
        #expect(ring.count == 18)
        ring.removeAll()
        #expect(ring.isEmpty && copy.count == 11)
    }

    @Test func prependPutsAnElementInFront() {
        var ring = RingBuffer<Int>()
        ring.append(2)
        ring.prepend(1)
        ring.prepend(0)
        ring.append(3)
        #expect(Array(ring) == [0, 1, 2, 3])
        #expect(ring.first == 0)
        #expect(ring.count == 4)
    }
}
