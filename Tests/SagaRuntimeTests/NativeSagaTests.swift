import SagaCore
import SagaLanguage
import SagaRuntime
import Synchronization
import Testing

/// Sagas written in Swift run on the same scheduler as scripted ones, under the same rules.
@Suite struct NativeSagaTests {
    func interpreter(_ source: String, host: HostFunctions = HostFunctions(), output: BufferedOutput) -> Interpreter? {
        guard let program = Frontend(hostFunctions: host.names).compile(source: source, path: "test.saga").program else {
            return nil
        }
        return Interpreter(program: program, options: .init(virtualTime: true, printActions: true), host: host, output: output)
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
        let status = await interpreter.run(input: InputSource(lines: [#"{"type":"ping","n":1}"#, #"{"type":"ping","n":2}"#]))
        #expect(status == .success)
        #expect(
            output.lines == [
                #"action {"n":1,"type":"ping"}"#, "scripted saw 1", #"action {"n":1,"type":"pong"}"#,
                #"action {"n":1,"type":"seen"}"#,
                #"action {"n":2,"type":"ping"}"#, "scripted saw 2", #"action {"n":2,"type":"pong"}"#,
                #"action {"n":2,"type":"seen"}"#,
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
