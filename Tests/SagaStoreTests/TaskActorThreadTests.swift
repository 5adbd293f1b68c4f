import SagaStore
import Testing

/// A task middleware given no thread hops to the store's own actor: the main actor here.
@MainActor @Suite struct TaskActorThreadTests {
    @Test(.timeLimit(.minutes(3))) func aTaskDispatchesAndReadsOnTheStoresActorInOrder() async {
        let tasks = TaskMiddleware<Screen.State, Screen.Action>(extract: {
            if case .task(let command) = $0 { command } else { nil }
        })
        let store = Store(initialState: Screen.State(), reducer: Screen.reduce, middleware: [tasks.makeMiddleware()])
        store.dispatch(.query("jazz"))
        store.dispatch(
            .task(
                .run(
                    TaskAction(id: "search") { context in
                        let query = try await context.read { $0.query }
                        for part in 1...50 { await context.dispatch(.progress(part)) }
                        await context.dispatch(.note("searched \(query)"))
                    })))
        for await state in store.states() where state.log.contains("searched jazz") { break }
        #expect(store.state.progress == 50)
        #expect(store.state.log == ["searched jazz"])
    }
}
