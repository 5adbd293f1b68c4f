import SagaStore
import Testing

/// An app observes the store's state as an async sequence, without polling.
@MainActor @Suite struct StoreStatesTests {
    @Test(.timeLimit(.minutes(5))) func statesGivesTheCurrentStateThenEachChange() async {
        let store = Store(initialState: 0, reducer: { (state: inout Int, by: Int) in state += by })
        var seen: [Int] = []
        let states = store.states()
        store.dispatch(1)
        for await state in states {
            seen.append(state)
            if state == 1 { store.dispatch(2) }
            if state == 3 { break }
        }
        // Newest first: the state of 0 was replaced by 1 before the loop began.
        #expect(seen == [1, 3])
    }

    @Test(.timeLimit(.minutes(5))) func aStoreFedFromOtherTasksIsObservedToTheEnd() async {
        let store = Store(initialState: 0, reducer: { (state: inout Int, by: Int) in state += by })
        let send = store.dispatcher
        let states = store.states()
        Task.detached {
            for _ in 0..<100 { send(1) }
        }
        for await state in states where state == 100 { break }
        #expect(store.state == 100)
    }
}
