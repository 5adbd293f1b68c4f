import SagaCore
import SagaLanguage
import SagaRuntime
import SagaStore
import Synchronization
import Testing

/// Sagas written in Swift run on the same scheduler as scripted ones, under the same rules.
@Suite struct NativeSagaTests {
    func interpreter(_ source: String, host: HostFunctions = HostFunctions(), output: BufferedOutput) -> Interpreter? {
        guard let program = Frontend(hostFunctions: host.names).compile(source: source, path: "test.saga").program
        else {
            return nil
        }
        return Interpreter(
            program: program, options: .init(virtualTime: true, printActions: true), host: host, output: output)
    }

    /// A forked child that uses its parent's effects while the parent waits on its own is an
    /// error, whichever asks second: the run ends, rather than hang with the first effect's
    /// continuation replaced by the second's.
    @Test func aChildUsingItsParentsEffectsFailsInsteadOfHanging() async {
        let output = BufferedOutput()
        guard let interpreter = interpreter("", output: output) else {
            Issue.record("does not compile")
            return
        }
        interpreter.addSaga("parent") { saga in
            while true {
                try await saga.take("go")
                try await saga.fork { _ in try await saga.put("from/child") }
            }
        }
        let status = await interpreter.run(input: InputSource(lines: [#"{"type":"go"}"#]))
        #expect(status == .sagaFailed)
        #expect(output.errors.contains { $0.contains("a saga's effects were used by two Swift tasks at once") })
    }

    /// A saga written in Swift that fails is reported by its name, with no place in a file.
    @Test func aFailedNativeSagaIsReportedByName() async {
        struct ServerDown: Error {}
        let output = BufferedOutput()
        guard let interpreter = interpreter("", output: output) else {
            Issue.record("does not compile")
            return
        }
        interpreter.addSaga("fails") { _ in throw ServerDown() }
        #expect(await interpreter.run(input: nil) == .sagaFailed)
        #expect(output.errors.count == 1)
        #expect(output.errors.first?.hasPrefix("error: saga fails failed: ") == true)
        #expect(output.errors.first?.hasSuffix("\n    at saga fails") == true, "\(output.errors)")
    }

    @Test func nativeAndScriptedSagasInterleaveDeterministically() async {
        let output = BufferedOutput()
        let source = """
            saga scripted {
              every "ping" as a {
                log "scripted saw \\(a.n)"
                put "pong" { n: a.n }
              }
            }
            """
        guard let interpreter = interpreter(source, output: output) else {
            Issue.record("does not compile")
            return
        }
        interpreter.addSaga("native") { saga in
            while true {
                let pong = try await saga.take("pong")
                try await saga.put("seen", ["n": pong["n"]])
            }
        }
        let status = await interpreter.run(
            input: InputSource(lines: [#"{"type":"ping","n":1}"#, #"{"type":"ping","n":2}"#]))
        #expect(status == .success)
        #expect(
            output.lines == [
                #"action {"n":1,"type":"ping"}"#, "scripted saw 1", #"action {"n":1,"type":"pong"}"#,
                #"action {"n":1,"type":"seen"}"#,
                #"action {"n":2,"type":"ping"}"#, "scripted saw 2", #"action {"n":2,"type":"pong"}"#,
                #"action {"n":2,"type":"seen"}"#,
            ])
    }

    /// A saga written in Swift takes from an event channel as a scripted one does: the
    /// messages in order, then `Ended` once the host closes it; a channel closed and empty
    /// ends the next take at once, and a failed source's error is thrown.
    @Test func aNativeSagaTakesFromAnEventChannel() async {
        let feed = EventChannel(named: "feed")
        let broken = EventChannel(named: "broken")
        var host = HostFunctions()
        host.register("feed.open") { _ in
            Task {
                feed.send(1)
                feed.send(2)
                feed.close()
            }
            return feed.value
        }
        host.register("broken.open") { _ in
            broken.close(throwing: SagaError(kind: "SocketError", message: "reset"))
            return broken.value
        }
        let output = BufferedOutput()
        guard let interpreter = interpreter("", host: host, output: output) else {
            Issue.record("does not compile")
            return
        }
        interpreter.addSaga("native") { saga in
            let messages = try await saga.call("feed.open")
            do {
                while true {
                    let n = try await saga.take(from: messages)
                    try await saga.put("got", ["n": n])
                }
            } catch is SagaEffects.Ended {
                try await saga.put("ended")
            }
            do {
                try await saga.take(from: messages)
            } catch is SagaEffects.Ended {
                try await saga.put("ended again")
            }
            do {
                try await saga.take(from: try await saga.call("broken.open"))
            } catch let error as SagaError {
                try await saga.put("failed", ["kind": .string(error.kind ?? "")])
            }
        }
        interpreter.addSaga("early") { saga in
            // Sent and closed before the saga has it: each take(from:) of the same value goes on
            // where the last stopped.
            let early = EventChannel(named: "early")
            for n in 1...3 { early.send(.int(n)) }
            early.close()
            var sum = 0
            do {
                while true {
                    if case .int(let n) = try await saga.take(from: early.value) { sum += n }
                }
            } catch is SagaEffects.Ended {
                try await saga.put("early", ["sum": .int(sum)])
            }
        }
        #expect(await interpreter.run() == .success)
        #expect(output.lines.contains(#"action {"sum":6,"type":"early"}"#))
        #expect(
            output.lines.filter { !$0.contains("early") } == [
                #"action {"n":1,"type":"got"}"#, #"action {"n":2,"type":"got"}"#, #"action {"type":"ended"}"#,
                #"action {"type":"ended again"}"#, #"action {"kind":"SocketError","type":"failed"}"#,
            ])
    }

    @Test func aNativeSagaDelaysSelectsAndCallsHostFunctions() async {
        var host = HostFunctions()
        host.register("double") { (n: Int) async throws -> Int in n * 2 }
        let output = BufferedOutput()
        guard let interpreter = interpreter("state { count: 20 }", host: host, output: output) else {
            Issue.record("does not compile")
            return
        }
        let seen = Mutex<[String]>([])
        interpreter.addSaga("native") { saga in
            try await saga.delay(100)
            let state = try await saga.select()
            let doubled = try await saga.call("double", state["count"])
            seen.withLock { $0.append("doubled \(doubled.canonicalJSON)") }
            try await saga.put("done", ["value": doubled])
        }
        #expect(await interpreter.run() == .success)
        #expect(seen.withLock { $0 } == ["doubled 40"])
        #expect(output.lines == [#"action {"type":"done","value":40}"#])
    }

    @Test func cancellingANativeSagaThrowsCancelledOutOfItsEffect() async {
        let output = BufferedOutput()
        let source = """
            saga main {
              take "stop"
              put "stopping"
            }
            """
        guard let interpreter = interpreter(source, output: output) else {
            Issue.record("does not compile")
            return
        }
        let log = Mutex<[String]>([])
        interpreter.addSaga("worker") { saga in
            let child = try await saga.fork { saga in
                defer { log.withLock { $0.append("child cleaned up") } }
                try await saga.take("never")
            }
            try await saga.take("stopping")
            try await saga.cancel(child)
            log.withLock { $0.append("worker cancelled its child") }
        }
        #expect(await interpreter.run(input: InputSource(lines: [#"{"type":"stop"}"#])) == .success)
        #expect(log.withLock { $0 } == ["child cleaned up", "worker cancelled its child"])
    }

    @Test func atEndAWaitingTakeEndsTheNativeSaga() async {
        let output = BufferedOutput()
        guard let interpreter = interpreter("", output: output) else {
            Issue.record("does not compile")
            return
        }
        let ended = Mutex(false)
        interpreter.addSaga("waiter") { saga in
            do {
                try await saga.take("never")
            } catch is SagaEffects.Ended {
                ended.withLock { $0 = true }
                throw SagaEffects.Ended()
            }
        }
        #expect(await interpreter.run() == .success)
        #expect(ended.withLock { $0 })
    }

    @Test func aNativeSagaThatThrowsFailsLikeAnyRootSaga() async {
        struct Broken: Error {}
        let output = BufferedOutput()
        guard let interpreter = interpreter("", output: output) else {
            Issue.record("does not compile")
            return
        }
        interpreter.addSaga("fragile") { _ in throw Broken() }
        #expect(await interpreter.run() == .sagaFailed)
        #expect(output.errors.first?.hasPrefix("error: saga fragile failed: Broken()") == true)
    }
}

/// Native race, all and typed take.
@Suite struct NativeCombinatorTests {
    enum Action: Codable, Equatable { case go(n: Int) }

    @Test func raceAllAndTypedTake() async {
        var host = HostFunctions()
        host.register("slow") { () async throws -> Int in 1 }
        guard let program = Frontend(hostFunctions: host.names).compile(source: "", path: "t.saga").program else {
            Issue.record("does not compile")
            return
        }
        let output = BufferedOutput()
        let interpreter = Interpreter(program: program, options: .init(virtualTime: true), host: host, output: output)
        let log = Mutex<[String]>([])
        interpreter.addSaga("native") { saga in
            let first = try await saga.race(["timeout": .delay(50), "go": .take("go")])
            log.withLock { $0.append("race: \(first.key)") }
            let both = try await saga.all(["a": .call("slow", []), "b": .delay(10)])
            log.withLock { $0.append("all: \(both["a"]?.canonicalJSON ?? "-") \(both["b"]?.canonicalJSON ?? "-")") }
            let go = try await saga.take(Action.self, "go")
            log.withLock { $0.append("typed: \(go)") }
        }
        let status = await interpreter.run(input: InputSource(lines: [#"{"at": 100, "action": {"type":"go","n":7}}"#]))
        #expect(status == .success)
        #expect(log.withLock { $0 } == ["race: timeout", "all: 1 true", "typed: go(n: 7)"])
    }
}

/// Several programs share one app store, each with its own interpreter.
@MainActor @Suite struct SharedStoreTests {
    struct State: Codable { var log: [String] = [] }
    enum Action: Codable { case start, note(text: String) }

    @Test func twoProgramsOverOneStore() async {
        let sagas = SagaMiddleware(bridge: CodableBridge<State, Action>())
        let store = Store(
            initialState: State(),
            reducer: { (s: inout State, a: Action) in if case .note(let t) = a { s.log.append(t) } },
            middleware: [sagas.middleware])
        var runs: [Task<RunStatus, Never>] = []
        var interpreters: [Interpreter] = []
        for name in ["first", "second"] {
            let source = "saga \(name) { every \"start\" as a { put \"note\" { text: \"\(name)\" } } }"
            guard let program = Frontend().compile(source: source, path: "\(name).saga").program else { return }
            let interpreter = sagas.interpreter(for: program, store: store, output: BufferedOutput())
            interpreters.append(interpreter)
            runs.append(Task { await interpreter.run() })
        }
        while !interpreters.allSatisfy(\.isRunning) { await Task.yield() }
        store.dispatch(.start)
        #expect(store.state.log == ["first", "second"])
        for i in interpreters { i.stop() }
        for r in runs { #expect(await r.value == .success) }
    }
}
