import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// An app runs sagas over its own typed store: its actions reach sagas as values, sagas put
/// the app's actions and select from its state, and call the app's async functions.
@MainActor @Suite struct EmbeddingTests {
    struct AppState: Codable, Equatable {
        var count = 0
        var user: String?
    }

    enum AppAction: Codable, Equatable {
        case increment(by: Int)
        case loadUser(id: Int)
        case userLoaded(name: String)
    }

    struct User: Codable {
        var id: Int
        var name: String
    }

    static func reduce(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .increment(let by): state.count += by
        case .userLoaded(let name): state.user = name
        case .loadUser: break
        }
    }

    static let program = """
        saga users {
          every "loadUser" as a {
            let user = call api.fetchUser(a.id)
            put "userLoaded" { name: user.name }
          }
        }
        saga counter {
          loop {
            take "increment"
            let n = select state.count
            log "count \\(n)"
          }
        }
        """

    var host: HostFunctions {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Ada") }
        return host
    }

    /// Waits (without sleeping) until the store's state satisfies `condition`.
    func waitFor(_ store: Store<AppState, AppAction>, _ condition: @escaping (AppState) -> Bool) async {
        if condition(store.state) { return }
        let (changes, continuation) = AsyncStream<Void>.makeStream()
        let token = store.subscribe { state in if condition(state) { continuation.yield() } }
        defer { store.unsubscribe(token) }
        for await _ in changes { return }
    }

    @Test func anAppsActionsReachSagasWhichPutTheAppsActions() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let program = Frontend(hostFunctions: host.names).compile(source: Self.program, path: "app.saga").program
        else {
            Issue.record("the program does not compile")
            return
        }
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
        let running = Task { await interpreter.run() }
        await Task.yield()

        store.dispatch(.increment(by: 2))
        store.dispatch(.loadUser(id: 7))
        await waitFor(store) { $0.user == "Ada" }
        #expect(store.state == AppState(count: 2, user: "Ada"))

        store.dispatch(.increment(by: 3))
        while output.lines.count < 2 { await Task.yield() }
        #expect(output.lines == ["count 2", "count 5"])

        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
    }

    /// A run over an app's store, which waits for the app's actions, still ends once it passes
    /// its step budget, even with a host call that never answers in flight: it waits for
    /// neither.
    @Test(.timeLimit(.minutes(5))) func aRunOverAnAppsStoreEndsWhenItsBudgetIsSpent() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        var host = HostFunctions()
        host.register("never") { _ in
            try await Task.sleep(nanoseconds: 3_600_000_000_000)
            return .null
        }
        let source = "saga main {\n  fork { call never() }\n  loop { log 1 }\n}"
        guard let program = Frontend(hostFunctions: host.names).compile(source: source, path: "app.saga").program
        else {
            Issue.record("the program does not compile")
            return
        }
        var options = Interpreter.Options()
        options.maxRunSteps = 100
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, options: options, host: host, output: output)
        #expect(await interpreter.run() == .sagaFailed)
        #expect(
            output.errors == [
                "error: the run took more than 100 steps; it was stopped; raise the limit with --max-run-steps"
            ])
    }

    /// An app's event source reaches a saga over the app's store: the host function gives an
    /// `EventChannel`, the app sends to it from another task, and the saga puts the app's
    /// actions; stopping the run closes the channel, which runs the app's cleanup.
    @Test(.timeLimit(.minutes(5))) func anEventChannelFeedsASagaOverTheAppsStore() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let (cleaned, cleanup) = AsyncStream<Void>.makeStream()
        let ticks = EventChannel(named: "ticks") {
            cleanup.yield()
            cleanup.finish()
        }
        var host = HostFunctions()
        host.register("ticks.open") { _ in ticks.value }
        let source = """
            saga ticker {
              let ch = call ticks.open()
              every ch as n { put "increment" { by: n } }
            }
            """
        guard let program = Frontend(hostFunctions: host.names).compile(source: source, path: "app.saga").program else {
            Issue.record("the program does not compile")
            return
        }
        let interpreter = sagas.interpreter(for: program, store: store, host: host, output: BufferedOutput())
        let running = interpreter.start()
        Task.detached {
            for n in 1...4 { ticks.send(.int(n)) }
        }
        await waitFor(store) { $0.count == 10 }
        #expect(store.state.count == 10)
        interpreter.stop()
        #expect(await running.value == .success)
        for await _ in cleaned { break }
        #expect(ticks.isClosed)
    }

    /// An app's own dispatch runs the sagas it wakes at once, without waking the run loop; a
    /// timer those sagas start must still wake it (here on the virtual clock, which the loop
    /// moves to the timer once it is idle).
    ///
    /// Before, the loop slept on and the test timed out.
    @Test(.timeLimit(.minutes(5))) func aTimerStartedByAnAppsOwnDispatchFires() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let source = """
            saga later { every "increment" as a { delay 5s; put "userLoaded" { name: "late" } } }
            """
        guard let program = Frontend().compile(source: source, path: "later.saga").program else {
            Issue.record("the program does not compile")
            return
        }
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(
            for: program, store: store, options: .init(virtualTime: true), output: output)
        let running = Task { await interpreter.run() }
        await Task.yield()

        store.dispatch(.increment(by: 1))
        await waitFor(store) { $0.user == "late" }
        #expect(store.state == AppState(count: 1, user: "late"))

        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
    }

    @Test func theCodableBridgeShowsEnumCasesAsTypedRecords() throws {
        let bridge = CodableBridge<AppState, AppAction>()
        #expect(bridge.value(of: .increment(by: 2)) == ["type": "increment", "by": 2])
        #expect(try bridge.action(from: ["type": "userLoaded", "name": "Ada"]) == .userLoaded(name: "Ada"))
        #expect(throws: SagaError.self) { try bridge.action(from: ["type": "nope"]) }
        #expect(bridge.value(of: AppState(count: 1, user: nil)) == ["count": 1])
    }

    /// Runs `source` over an app's store until the store's count is 1; what it printed.
    private func runUntilIncremented(_ source: String) async -> BufferedOutput {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let output = BufferedOutput()
        guard let program = Frontend().compile(source: source, path: "app.saga").program else {
            Issue.record("the program does not compile")
            return output
        }
        let interpreter = sagas.interpreter(for: program, store: store, output: output)
        let running = Task { await interpreter.run() }
        await waitFor(store) { $0.count == 1 }
        interpreter.stop()
        _ = await running.value
        return output
    }

    @Test func aPutTheAppHasNoActionForFailsInTheSaga() async {
        let output = await runUntilIncremented(
            """
            saga main {
              try { put "noSuchAction" } catch e { log e.kind }
              put "increment" { by: 1 }
            }
            """)
        #expect(output.lines == ["TypeError"])
    }

    /// The failure of such a `put` is reported at the `put`.
    @Test func aPutTheAppHasNoActionForIsReportedWhereItIs() async {
        let output = await runUntilIncremented(
            """
            saga main {
              spawn {
                put "noSuchAction"
              }
              put "increment" { by: 1 }
            }
            """)
        #expect(output.errors.count == 1)
        #expect(output.errors.first?.contains("at spawn block (app.saga:3:5)") == true)
    }

    /// Runs `source` against the app's store, dispatches `.increment(by: 1)` from the app, and
    /// stops once a failure is reported: the status, the transcript and the reports.
    private func runUntilAFailure(_ source: String) async -> (status: RunStatus?, output: BufferedOutput) {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let output = BufferedOutput()
        guard let program = Frontend().compile(source: source, path: "app.saga").program else {
            Issue.record("the program does not compile")
            return (nil, output)
        }
        let interpreter = sagas.interpreter(for: program, store: store, output: output)
        let running = Task { await interpreter.run() }
        await Task.yield()
        store.dispatch(.increment(by: 1))
        while output.errors.isEmpty { await Task.yield() }
        interpreter.stop()
        return (await running.value, output)
    }

    /// A `put` processed on the spot (nothing else waits) that fails is reported at the `put`,
    /// not at the statement its task resumed after.
    @Test func aPutProcessedOnTheSpotThatFailsIsReportedWhereItIs() async {
        let (status, output) = await runUntilAFailure(
            """
            saga main {
              let a = take "increment"
              log "took \\(a.by)"
              put "noSuchAction"
            }
            """)
        #expect(status == .sagaFailed)
        #expect(output.lines == ["took 1"])
        #expect(output.errors.first?.contains("at saga main (app.saga:4:3)") == true)
    }

    /// The same in a watcher's body, which runs in its watcher's turn until it gets a task of
    /// its own (here at the `put`, which fails): the failure is reported at the `put`.
    @Test func aWatchersBodyWhosePutTheAppHasNoActionForFailsAtThePut() async {
        let (status, output) = await runUntilAFailure(
            """
            saga main {
              every "increment" as a {
                log "body \\(a.by)"
                put "noSuchAction"
                log "unreached"
              }
            }
            """)
        #expect(status == .sagaFailed)
        #expect(output.lines == ["body 1"])
        #expect(output.errors.first?.contains("at every body (app.saga:4:5)") == true)
    }

    @Test func typedHostFunctionsNameThemselvesInErrors() async {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Ada") }
        let run = await runSaga(
            """
            saga main {
              try { call api.fetchUser("seven") } catch e { log e.message }
              try { call api.fetchUser(1, 2) } catch e { log e.message }
              let u = call api.fetchUser(3)
              log u
            }
            """, host: host)
        #expect(
            run.lines == [
                #"api.fetchUser: argument 1: expected Int, got "seven""#,
                "api.fetchUser takes 1 argument but 2 were given",
                #"{"id":3,"name":"Ada"}"#,
            ])
    }
}

/// A burst of an app's own dispatches reaches an `every` watcher one action at a time, as in
/// redux-saga: the sagas a dispatch wakes run before that dispatch returns.
@MainActor @Suite struct EmbeddingBurstTests {
    struct State: Codable { var seen: [Int] = [] }
    enum Action: Codable { case ping(n: Int), pong(n: Int) }

    @Test func everyWatcherSeesEachActionOfABurst() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(
            initialState: State(),
            reducer: { (s: inout State, a: Action) in if case .pong(let n) = a { s.seen.append(n) } },
            middleware: [sagas.middleware])
        let source = """
            saga main {
              every "ping" as p { put "pong" { n: p.n } }
            }
            """
        guard let program = Frontend().compile(source: source, path: "burst.saga").program else {
            Issue.record("does not compile")
            return
        }
        let interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        let running = Task { await interpreter.run() }
        while !interpreter.isRunning { await Task.yield() }
        for n in 1...5 { store.dispatch(.ping(n: n)) }
        #expect(store.state.seen == [1, 2, 3, 4, 5])
        interpreter.stop()
        #expect(await running.value == .success)
    }
}
