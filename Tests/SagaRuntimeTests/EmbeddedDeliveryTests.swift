import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Testing

/// Over an app's store, in real time, every saga sees every action once, in dispatch order:
/// scripted and native alike, however the actions arrive.
@MainActor @Suite struct EmbeddedDeliveryTests {
    struct AppState: Codable, Equatable {
        /// The pings in the order the reducer saw them.
        var pings: [Int] = []
        /// What each saga saw, in the order it saw it.
        var seen: [String: [Int]] = [:]
    }

    enum AppAction: Codable, Equatable {
        case ping(n: Int)
        case seen(by: String, n: Int)
    }

    static func reduce(_ state: inout AppState, _ action: AppAction) {
        switch action {
        case .ping(let n): state.pings.append(n)
        case .seen(let by, let n): state.seen[by, default: []].append(n)
        }
    }

    /// The actions as ``CodableBridge`` shows them; the state as its number of pings (the
    /// whole state, through `Codable`, would make each `select` as long as the lists).
    struct Bridge: SagaBridge {
        let actions = CodableBridge<AppState, AppAction>()
        func value(of action: AppAction) -> Value? { actions.value(of: action) }
        func action(from value: Value) throws(SagaError) -> AppAction { try actions.action(from: value) }
        func value(of state: AppState) -> Value { ["pings": .int(state.pings.count)] }
    }

    /// A scripted saga that takes, selects and puts, as the native one does.
    static let source = """
        saga scripted {
          loop {
            let p = take "ping"
            let count = select state.pings
            put "seen" { by: "scripted", n: p.n }
          }
        }
        """

    /// Waits (without sleeping) until the store's state satisfies `condition`.
    func waitFor(_ store: Store<AppState, AppAction>, _ condition: (AppState) -> Bool) async {
        for await state in store.states() where condition(state) { return }
    }

    /// Where two lists of numbers first differ, and how long each is: `nil` if they are equal.
    func firstDifference(_ seen: [Int], _ expected: [Int]) -> String? {
        if seen == expected { return nil }
        let at =
            zip(seen, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(seen.count, expected.count)
        return "at \(at) of \(seen.count) seen, \(expected.count) expected: "
            + "\(seen.dropFirst(at).prefix(5)) against \(expected.dropFirst(at).prefix(5))"
    }

    func start(
        _ store: Store<AppState, AppAction>, _ sagas: SagaMiddleware<AppState, AppAction>, virtualTime: Bool = false
    ) -> (
        Interpreter, Task<RunStatus, Never>
    )? {
        guard let program = Frontend().compile(source: Self.source, path: "delivery.saga").program else {
            Issue.record("the program does not compile")
            return nil
        }
        let interpreter = sagas.interpreter(
            for: program, store: store, options: .init(virtualTime: virtualTime), output: BufferedOutput())
        interpreter.addSaga("native") { saga in
            while true {
                let ping = try await saga.take("ping")
                _ = try await saga.select()
                try await saga.put("seen", ["by": "native", "n": ping["n"]])
            }
        }
        return (interpreter, interpreter.start())
    }

    @Test(.timeLimit(.minutes(3)), arguments: [false, true])
    func actionsSentFromOtherTasksReachEverySagaOnceInOrder(virtualTime: Bool) async {
        let sagas = SagaMiddleware(bridge: Bridge())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let (interpreter, running) = start(store, sagas, virtualTime: virtualTime) else { return }
        let send = store.dispatcher
        let senders = 4
        let each = 500
        await withTaskGroup(of: Void.self) { group in
            for s in 0..<senders {
                group.addTask {
                    for i in 0..<each {
                        send(.ping(n: s * each + i))
                        if i % 7 == 0 { await Task.yield() }
                    }
                }
            }
        }
        let total = senders * each
        await waitFor(store) {
            $0.seen["scripted", default: []].count == total && $0.seen["native", default: []].count == total
        }
        let state = store.state
        #expect(state.pings.count == total)
        #expect(Set(state.pings).count == total)
        #expect(firstDifference(state.seen["scripted"] ?? [], state.pings) == nil)
        #expect(firstDifference(state.seen["native"] ?? [], state.pings) == nil)
        interpreter.stop()
        #expect(await running.value == .success)
    }

    @Test(.timeLimit(.minutes(3))) func aBurstDispatchedOnTheStoresActorReachesANativeSaga() async {
        let sagas = SagaMiddleware(bridge: Bridge())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let (interpreter, running) = start(store, sagas) else { return }
        for round in 0..<50 {
            for i in 0..<4 { store.dispatch(.ping(n: round * 4 + i)) }
            await Task.yield()
        }
        await waitFor(store) {
            $0.seen["native", default: []].count == 200 && $0.seen["scripted", default: []].count == 200
        }
        #expect(firstDifference(store.state.seen["native"] ?? [], Array(0..<200)) == nil)
        #expect(firstDifference(store.state.seen["scripted"] ?? [], Array(0..<200)) == nil)
        interpreter.stop()
        #expect(await running.value == .success)
    }

    /// An interpreter runs once: starting it again says so and changes nothing, so that no
    /// action reaches its sagas twice.
    @Test(.timeLimit(.minutes(5))) func startingTwiceIsRefused() async throws {
        let sagas = SagaMiddleware(bridge: Bridge())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        let program = try #require(Frontend().compile(source: Self.source, path: "twice.saga").program)
        let output = BufferedOutput()
        let interpreter = sagas.interpreter(for: program, store: store, output: output)
        let running = interpreter.start()
        #expect(await interpreter.start().value == .sagaFailed)
        #expect(output.errors.contains { $0.contains("has been started already") })
        store.dispatch(.ping(n: 1))
        await waitFor(store) { $0.seen["scripted"] == [1] }
        #expect(store.state.seen == ["scripted": [1]])
        interpreter.stop()
        #expect(await running.value == .success)
    }

    @Test(.timeLimit(.minutes(5))) func anActionDispatchedRightAfterStartIsSeen() async {
        let sagas = SagaMiddleware(bridge: Bridge())
        let store = Store(initialState: AppState(), reducer: Self.reduce, middleware: [sagas.middleware])
        guard let (interpreter, running) = start(store, sagas) else { return }
        store.dispatch(.ping(n: 1))
        await waitFor(store) { $0.seen["native"] == [1] && $0.seen["scripted"] == [1] }
        #expect(store.state.seen == ["native": [1], "scripted": [1]])
        interpreter.stop()
        #expect(await running.value == .success)
    }
}

/// In an app, `delay` takes real time: virtual time is for tests.
@MainActor @Suite struct EmbeddedDelayTests {
    struct AppState: Codable, Equatable, Sendable {
        var log: [String] = []
    }

    enum AppAction: Codable, Equatable, Sendable {
        case start
        case done(who: String)
    }

    /// The sagas' delays end after their time on the continuous clock (a lower bound only).
    @Test(.timeLimit(.minutes(5))) func aDelayInAnEmbeddedRunTakesRealTime() async throws {
        let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
        let store = Store(
            initialState: AppState(),
            reducer: { (state: inout AppState, action: AppAction) in
                if case .done(let who) = action { state.log.append(who) }
            },
            middleware: [sagas.middleware])
        let source = """
            saga scripted {
              take "start"
              delay 60ms
              put "done" { who: "scripted" }
            }
            """
        let program = try #require(Frontend().compile(source: source, path: "delay.saga").program)
        let interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
        sagas.addSaga("native", to: interpreter) { saga in
            _ = try await saga.take("start")
            try await saga.delay(80)
            try await saga.put(.done(who: "native"))
        }
        let running = interpreter.start()
        let clock = ContinuousClock()
        let started = clock.now
        store.dispatch(.start)
        for await state in store.states() where state.log.count == 2 { break }
        let elapsed = clock.now - started
        #expect(store.state.log == ["scripted", "native"])
        #expect(elapsed >= .milliseconds(80))
        interpreter.stop()
        #expect(await running.value == .success)
    }
}
