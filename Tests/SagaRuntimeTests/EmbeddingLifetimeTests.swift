import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// Interpreters over an app's store come and go while the store lives on: the store's saga
/// middleware shows each action to every interpreter running over it, and keeps none alive
/// once its run has ended.
@MainActor @Suite struct EmbeddingLifetimeTests {
    struct State: Codable, Equatable {
        var pings = 0
        var pongs: [Int] = []
    }

    enum Action: Codable { case ping(n: Int), pong(n: Int) }

    static func reduce(_ state: inout State, _ action: Action) {
        switch action {
        case .ping: state.pings += 1
        case .pong(let n): state.pongs.append(n)
        }
    }

    func compile(_ source: String) -> Program? {
        let program = Frontend().compile(source: source, path: "app.saga").program
        if program == nil { Issue.record("does not compile: \(source)") }
        return program
    }

    /// Actions reach the running interpreters in the order their runs started, and each one's
    /// sagas run in that order once the store is idle.
    @Test func twoProgramsOverOneStoreEachSeeEveryAction() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let ones = compile(#"saga ones { every "ping" as p { put "pong" { n: p.n } } }"#),
            let tens = compile(#"saga tens { every "ping" as p { put "pong" { n: p.n * 10 } } }"#)
        else { return }
        let first = sagas.interpreter(for: ones, store: store, output: BufferedOutput())
        let second = sagas.interpreter(for: tens, store: store, output: BufferedOutput())
        let runningFirst = Task { await first.run() }
        while !first.isRunning { await Task.yield() }
        let runningSecond = Task { await second.run() }
        while !second.isRunning { await Task.yield() }

        store.dispatch(.ping(n: 1))
        store.dispatch(.ping(n: 2))
        #expect(store.state == State(pings: 2, pongs: [1, 10, 2, 20]))

        // Once the first has stopped, only the second sees the store's actions.
        first.stop()
        #expect(await runningFirst.value == .success)
        store.dispatch(.ping(n: 3))
        #expect(store.state == State(pings: 3, pongs: [1, 10, 2, 20, 30]))
        second.stop()
        #expect(await runningSecond.value == .success)
    }

    /// The store's middleware holds an interpreter only while its `run()` is under way (not
    /// through a weak reference, which makes every retain of the interpreter dearer): one never
    /// run, or whose run has ended, is freed when the app lets go of it, and the store goes on.
    @Test func anInterpreterLetGoOfIsFreedAndTheStoreGoesOn() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let program = compile(#"saga main { every "ping" as p { put "pong" { n: p.n } } }"#) else { return }
        weak var neverRun: Interpreter?
        do {
            let interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
            neverRun = interpreter
        }
        #expect(neverRun == nil)

        weak var gone: Interpreter?
        func runOnce() async {
            let interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
            gone = interpreter
            let running = Task { await interpreter.run() }
            while !interpreter.isRunning { await Task.yield() }
            store.dispatch(.ping(n: 1))
            interpreter.stop()
            _ = await running.value
        }
        await runOnce()
        #expect(store.state == State(pings: 1, pongs: [1]))
        #expect(gone == nil)

        // Nothing answers now, and the app's own actions still reach its reducer.
        store.dispatch(.ping(n: 2))
        store.dispatch(.pong(n: 7))
        #expect(store.state == State(pings: 2, pongs: [1, 7]))

        // A new interpreter over the same store takes the old one's place.
        let next = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        let running = Task { await next.run() }
        while !next.isRunning { await Task.yield() }
        store.dispatch(.ping(n: 3))
        #expect(store.state == State(pings: 3, pongs: [1, 7, 3]))
        next.stop()
        #expect(await running.value == .success)
    }

    /// Cancelling the task that runs the sagas stops them as `stop()` does: their `finally`
    /// blocks run and the run ends with its status, for `start()`'s task and for a task of the
    /// app's own around `run()`.
    @Test(.timeLimit(.minutes(5))) func cancellingTheRunsTaskStopsIt() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
        let source =
            #"saga main { try { every "ping" as p { put "pong" { n: p.n } }; take "never" } finally { put "pong" { n: -1 } } }"#
        guard let program = compile(source) else { return }
        let started = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        let running = started.start()
        store.dispatch(.ping(n: 1))
        while store.state.pongs.isEmpty { await Task.yield() }
        running.cancel()
        #expect(await running.value == .success)
        #expect(!started.isRunning)
        #expect(store.state == State(pings: 1, pongs: [1, -1]))

        let awaited = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        let own = Task { await awaited.run() }
        while !awaited.isRunning { await Task.yield() }
        own.cancel()
        #expect(await own.value == .success)
        store.dispatch(.ping(n: 2))
        #expect(store.state == State(pings: 2, pongs: [1, -1, -1]), "no saga answers the ping any more")
    }

    /// The interpreter does not keep its store alive, and a run whose store is freed stops:
    /// no crash when the app lets go of the store first, and the run's task ends.
    @Test(.timeLimit(.minutes(5))) func aRunWhoseStoreIsFreedStops() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        guard let program = compile(#"saga main { try { take "never" } finally { put "pong" { n: 1 } } }"#)
        else { return }
        var interpreter: Interpreter?
        var running: Task<RunStatus, Never>?
        weak var freed: Store<State, Action>?
        do {
            let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
            freed = store
            interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
            running = interpreter?.start()
        }
        #expect(freed == nil)
        #expect(await running?.value == .success)
        interpreter?.stop()
        #expect(interpreter?.isRunning == false)
    }

    /// An interpreter started after its store was freed has nothing to run over: its run ends
    /// at once, without touching the store.
    @Test(.timeLimit(.minutes(5))) func anInterpreterStartedAfterItsStoreWasFreedEndsAtOnce() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        guard let program = compile(#"saga main { take "never" }"#) else { return }
        var interpreter: Interpreter?
        do {
            let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
            interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        }
        let running = interpreter?.start()
        #expect(await running?.value == .success)
        #expect(interpreter?.isRunning == false)
    }
}
