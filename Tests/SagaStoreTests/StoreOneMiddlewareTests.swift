import SagaStore
import Testing

/// `dispatch(_:before:after:)` is the saga interpreter's way through its own store, whose only
/// middleware is the saga middleware: it must do what dispatching through that middleware does.
@Suite struct StoreOneMiddlewareTests {
    enum Action: Equatable {
        case add(Int)
        case echo(Int)
    }

    /// A store whose one middleware logs around the reducer and, after an `echo`, dispatches an
    /// `add`; with a subscriber and an idle observer that log too.
    final class Logged {
        var log: [String] = []
        var store: Store<Int, Action>?

        init() {
            // Unowned in both closures: the outer one holding `self` would keep it (the store's
            // owner) alive from the store's middleware.
            let middleware = Middleware<Int, Action> { [unowned self] api, next in
                { [unowned self] action in
                    before(action, api.state)
                    next(action)
                    after(action, api.state, dispatch: api.dispatch)
                }
            }
            let store = Store(
                initialState: 0,
                reducer: { (state: inout Int, action: Action) in if case .add(let n) = action { state += n } },
                middleware: [middleware])
            store.subscribe { [unowned self] state in log.append("subscriber \(state)") }
            store.whenIdle { [unowned self, unowned store] in log.append("idle \(store.state)") }
            self.store = store
        }

        func before(_ action: Action, _ state: Int) { log.append("before \(action) \(state)") }

        func after(_ action: Action, _ state: Int, dispatch: (Action) -> Void) {
            log.append("after \(action) \(state)")
            if case .echo(let n) = action { dispatch(.add(n)) }
        }
    }

    @Test func doesWhatTheChainDoes() throws {
        let chained = Logged()
        let chainedStore = try #require(chained.store)
        chainedStore.dispatch(.echo(2))
        chainedStore.dispatch(.add(1))

        let direct = Logged()
        let store = try #require(direct.store)
        for action in [Action.echo(2), .add(1)] {
            store.dispatch(
                action, before: { direct.before(action, store.state) },
                after: { direct.after(action, store.state, dispatch: store.dispatch) })
        }

        #expect(
            chained.log == [
                "before echo(2) 0", "subscriber 0", "after echo(2) 0",
                // The `add` the middleware dispatched, queued behind the `echo`.
                "before add(2) 0", "subscriber 2", "after add(2) 2",
                "idle 2",
                "before add(1) 2", "subscriber 3", "after add(1) 3",
                "idle 3",
            ])
        #expect(direct.log == chained.log)
        #expect(store.state == 3)
    }

    @Test func anActionDispatchedWhileTheStoreIsBusyIsQueued() {
        var log: [String] = []
        let store = Store(initialState: 0) { (state: inout Int, action: Action) in
            if case .add(let n) = action { state += n }
        }
        store.dispatch(
            .add(1),
            before: {
                // Queued: it goes through the chain (no middleware here) once `add(1)` is done.
                store.dispatch(.add(10), before: { log.append("not called") }, after: { log.append("not called") })
                log.append("before \(store.state)")
            },
            after: { log.append("after \(store.state)") })
        #expect(log == ["before 0", "after 1"])
        #expect(store.state == 11)
    }
}
