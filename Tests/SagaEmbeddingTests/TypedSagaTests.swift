import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Synchronization
import Testing

/// Sagas written in Swift over an app's store, in the app's own types.
@MainActor @Suite struct TypedSagaTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    struct AppState: Codable, Equatable, Sendable {
        var user: User?
        var failure: String?
        var requests = 0
        var loads = 0
    }

    enum AppAction: Codable, Equatable, Sendable {
        case fetchUser(id: Int)
        case userLoaded(User)
        case userFailed(String)
    }

    static func reduce(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .fetchUser: state.requests += 1
        case .userLoaded(let user):
            state.user = user
            state.loads += 1
        case .userFailed(let message): state.failure = message
        }
    }

    /// Waits (without sleeping) until the store's state satisfies `condition`.
    func waitFor(_ store: Store<AppState, AppAction>, _ condition: (AppState) -> Bool) async {
        for await state in store.states() where condition(state) { return }
    }

    func setUp(
        host: HostFunctions
    ) throws -> (
        Store<AppState, AppAction>, SagaMiddleware<AppState, AppAction>, Interpreter, BufferedOutput
    ) {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let program = try #require(Frontend().compile(source: "", path: "none.saga").program)
        let output = BufferedOutput()
        return (store, sagas, sagas.interpreter(for: program, store: store, host: host, output: output), output)
    }

    /// ReduxSwiftSaga's `FetchUser`: take a request, call, put success or failure.
    @Test(.timeLimit(.minutes(5))) func fetchUserTakesCallsAndPutsTheAppsTypes() async throws {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in
            if id < 0 { throw SagaError(kind: "NotFound", message: "no user \(id)") }
            return User(id: id, name: "Ada")
        }
        let (store, sagas, interpreter, output) = try setUp(host: host)
        sagas.addSaga("fetchUser", to: interpreter) { saga in
            while true {
                guard case .fetchUser(let id) = try await saga.take("fetchUser") else { continue }
                do {
                    let user: User = try await saga.call("api.fetchUser", id)
                    try await saga.put(.userLoaded(user))
                } catch let error as SagaError {
                    try await saga.put(.userFailed(error.message))
                }
            }
        }
        let running = interpreter.start()
        store.dispatch(.fetchUser(id: 7))
        await waitFor(store) { $0.user != nil }
        #expect(store.state.user == User(id: 7, name: "Ada"))
        store.dispatch(.fetchUser(id: -1))
        await waitFor(store) { $0.failure != nil }
        #expect(store.state.failure == "no user -1")
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
    }

    /// A typed `call` whose result is a `Value` gives it as it is: the event channel a host
    /// function makes stays a channel, which the saga takes from.
    @Test(.timeLimit(.minutes(5))) func aTypedCallGivesAnEventChannelAsAChannel() async throws {
        var host = HostFunctions()
        host.register("chat.connect") { (_: [Value]) in
            let messages = EventChannel(named: "chat.general")
            messages.send("hello")
            return messages.value
        }
        let (store, sagas, interpreter, output) = try setUp(host: host)
        sagas.addSaga("chat", to: interpreter) { saga in
            let channel: Value = try await saga.call("chat.connect")
            let message = try await saga.effects.take(from: channel)
            try await saga.put(.userFailed(message.stringValue ?? "not a string"))
        }
        let running = interpreter.start()
        await waitFor(store) { $0.failure != nil }
        #expect(store.state.failure == "hello")
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty, "\(output.errors)")
    }

    /// A typed `fork` gives the child a typed saga of its own: a loop that forks each
    /// request's work handles every request, even one that arrives while another is in a call.
    @Test(.timeLimit(.minutes(5))) func aTypedForkHandlesEachRequestInAChildOfItsOwn() async throws {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "user \(id)") }
        let (store, sagas, interpreter, output) = try setUp(host: host)
        sagas.addSaga("fetchEach", to: interpreter) { saga in
            while true {
                guard case .fetchUser(let id) = try await saga.take("fetchUser") else { continue }
                try await saga.fork { child in
                    let user: User = try await child.call("api.fetchUser", id)
                    try await child.put(.userLoaded(user))
                }
            }
        }
        let running = interpreter.start()
        store.dispatch(.fetchUser(id: 1))
        store.dispatch(.fetchUser(id: 2))
        await waitFor(store) { $0.loads == 2 }
        #expect(store.state.requests == 2)
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
    }

    /// A typed saga joins a child it forked and cancels another, without the untyped effects.
    @Test(.timeLimit(.minutes(5))) func aTypedSagaJoinsAndCancelsItsChildren() async throws {
        let (store, sagas, interpreter, output) = try setUp(host: HostFunctions())
        sagas.addSaga("parent", to: interpreter) { saga in
            let waiting = try await saga.fork { child in
                do {
                    _ = try await child.take("never")
                } catch is SagaEffects.Cancelled {
                    try? await child.put(.userFailed("cancelled"))
                    throw SagaEffects.Cancelled()
                }
            }
            let loading = try await saga.fork { child in try await child.put(.userLoaded(User(id: 1, name: "Ada"))) }
            try await saga.join(loading)
            try await saga.cancel(waiting)
        }
        let running = interpreter.start()
        await waitFor(store) { $0.failure != nil }
        #expect(store.state.user == User(id: 1, name: "Ada") && store.state.failure == "cancelled")
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty, "\(output.errors)")
    }

    /// `select` gives the app's state itself (or a key path of it), and `take(where:)` waits for
    /// an action the app's own type describes.
    @Test(.timeLimit(.minutes(5))) func selectGivesTheAppsStateAndTakeWhereMatchesTheAppsActions() async throws {
        let (store, sagas, interpreter, _) = try setUp(host: HostFunctions())
        let seen = Mutex<[String]>([])
        sagas.addSaga("watch", to: interpreter) { saga in
            let action = try await saga.take { if case .fetchUser(let id) = $0 { id > 10 } else { false } }
            let requests = try await saga.select(\.requests)
            let state = try await saga.select()
            seen.withLock { $0 = ["\(action)", "\(requests)", "\(state.requests)"] }
            try await saga.put(.userLoaded(User(id: 0, name: "done")))
        }
        let running = interpreter.start()
        for id in [1, 5, 12, 20] { store.dispatch(.fetchUser(id: id)) }
        await waitFor(store) { $0.user != nil }
        // The four dispatches ran on the store's actor before the saga's next effect: the
        // reducer has seen them all when it selects.
        #expect(seen.withLock { $0 } == ["fetchUser(id: 12)", "4", "4"])
        interpreter.stop()
        _ = await running.value
    }

    /// A result that does not decode into the asked type is a `HostError` naming the function
    /// and the types; a Swift function of the saga's own runs as a call.
    @Test(.timeLimit(.minutes(5))) func aResultOfTheWrongTypeIsAHostErrorAndOwnFunctionsRun() async throws {
        var host = HostFunctions()
        host.register("api.count") { () async throws -> Int in 3 }
        let (store, sagas, interpreter, _) = try setUp(host: host)
        sagas.addSaga("typed", to: interpreter) { saga in
            do {
                let _: User = try await saga.call("api.count")
            } catch let error as SagaError {
                try await saga.put(.userFailed("\(error.kind ?? ""): \(error.message)"))
            }
            let user = try await saga.call { User(id: 1, name: "from Swift") }
            try await saga.put(.userLoaded(user))
        }
        let running = interpreter.start()
        await waitFor(store) { $0.user != nil }
        #expect(store.state.failure == "HostError: api.count: the result 3 is not a User")
        #expect(store.state.user == User(id: 1, name: "from Swift"))
        interpreter.stop()
        _ = await running.value
    }

    /// A typed `race` gives the winning entry's key and what it gave, as the app's action for
    /// a `take`; the losers are cancelled, so a timeout that lost never fires.
    @Test(.timeLimit(.minutes(5))) func aTypedRaceGivesTheWinnersAction() async throws {
        let (store, sagas, interpreter, _) = try setUp(host: HostFunctions())
        let winners = Mutex<[String]>([])
        sagas.addSaga("racer", to: interpreter) { saga in
            let (key, outcome) = try await saga.race(["request": .take("fetchUser"), "timeout": .delay(60_000)])
            winners.withLock { $0.append(key) }
            guard case .fetchUser(let id) = try outcome.action() else { return }
            let (second, _) = try await saga.race(["never": .take("userFailed"), "timeout": .delay(1)])
            winners.withLock { $0.append(second) }
            try await saga.put(.userLoaded(User(id: id, name: "raced")))
        }
        let running = interpreter.start()
        store.dispatch(.fetchUser(id: 5))
        await waitFor(store) { $0.user != nil }
        #expect(store.state.user == User(id: 5, name: "raced"))
        #expect(winners.withLock { $0 } == ["request", "timeout"])
        interpreter.stop()
        #expect(await running.value == .success)
    }

    /// A typed `all` runs a `put` of the app's action and a host `call` together and gives each
    /// entry's outcome by its key.
    @Test(.timeLimit(.minutes(5))) func aTypedAllGivesEachEntrysOutcome() async throws {
        var host = HostFunctions()
        host.register("api.fetchUser") { (id: Int) async throws -> User in User(id: id, name: "Grace") }
        let (store, sagas, interpreter, output) = try setUp(host: host)
        let seen = Mutex<[String]>([])
        sagas.addSaga("both", to: interpreter) { saga in
            let outcomes = try await saga.all([
                "note": .put(.userFailed("pending")), "user": .call("api.fetchUser", [3]),
            ])
            let user: User = try outcomes["user"]?.decode() ?? User(id: 0, name: "")
            let note = try outcomes["note"]?.action()
            seen.withLock { $0.append("\(note.map { "\($0)" } ?? "none")") }
            try await saga.put(.userLoaded(user))
        }
        let running = interpreter.start()
        await waitFor(store) { $0.user != nil }
        #expect(store.state.user == User(id: 3, name: "Grace"))
        #expect(store.state.failure == "pending")
        #expect(seen.withLock { $0 } == [#"userFailed("pending")"#])
        interpreter.stop()
        #expect(await running.value == .success)
        #expect(output.errors.isEmpty)
    }
}
