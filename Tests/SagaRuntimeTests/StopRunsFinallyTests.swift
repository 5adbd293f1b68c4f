import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A stop cancels the root sagas and lets their `finally` blocks run to their end: a block may
/// wait for a host call and a delay, and a `take` that nothing can answer any more gets END.
@Suite struct StopRunsFinallyTests {
    /// Holds the interpreter for the host function that stops it.
    private final class InterpreterBox: @unchecked Sendable {
        var interpreter: Interpreter?
    }

    @Test(arguments: [true, false])
    func aFinallyBlockWaitsAfterAStop(virtualTime: Bool) async throws {
        let source = """
            saga main {
              try {
                call stopRun()
                take "never"
              } finally {
                log "cancelled \\(cancelled)"
                let r = call flush("notes")
                log "flushed \\(r)"
                delay 20
                log "after the delay"
                take "nothing"
                log "not reached"
              }
            }
            """
        let box = InterpreterBox()
        var host = HostFunctions()
        host.register("stopRun") { _ in
            box.interpreter?.stop()
            return .null
        }
        host.register("flush") { args in args.first ?? .null }
        let program = try #require(Frontend(hostFunctions: host.names).compile(source: source, path: "t.saga").program)
        let output = BufferedOutput()
        let interpreter = Interpreter(
            program: program, options: .init(virtualTime: virtualTime), host: host, output: output)
        box.interpreter = interpreter
        let status = await interpreter.run()
        box.interpreter = nil
        #expect(status == .success)
        #expect(output.lines == ["cancelled true", "flushed notes", "after the delay"], "\(output.errors)")
    }
}
