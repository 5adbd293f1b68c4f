import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// Interpreters over an app's store come and go while the store lives on: the store's saga
/// middleware shows each action to every interpreter made over it, and does not keep one alive.
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

    @Test func twoProgramsOverOneStoreEachSeeEveryAction() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let ones = compile(#"saga ones { every "ping" as p { put "pong" { n: p.n } } }"#),
            let tens = compile(#"saga tens { every "ping" as p { put "pong" { n: p.n * 10 } } }"#)
        else { return }
        let first = sagas.interpreter(for: ones, store: store, output: BufferedOutput())
        let second = sagas.interpreter(for: tens, store: store, output: BufferedOutput())
        let runningFirst = Task { await first.run() }
        let runningSecond = Task { await second.run() }
        while !first.isRunning || !second.isRunning { await Task.yield() }

        store.dispatch(.ping(n: 1))
        store.dispatch(.ping(n: 2))
        #expect(store.state.pings == 2)
        #expect(store.state.pongs.sorted() == [1, 2, 10, 20])

        first.stop()
        second.stop()
        #expect(await runningFirst.value == .success)
        #expect(await runningSecond.value == .success)
    }

    /// The middleware reaches an interpreter through a box the interpreter empties as it goes
    /// (not a weak reference, which made every retain of the interpreter dearer): the store
    /// must neither keep the interpreter alive nor reach it once it is gone (a box left full
    /// is a use after free, which the address sanitizer's run of the tests reports).
    @Test func anInterpreterLetGoOfIsFreedAndTheStoreGoesOn() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(initialState: State(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let program = compile(#"saga main { every "ping" as p { put "pong" { n: p.n } } }"#) else { return }
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
}
