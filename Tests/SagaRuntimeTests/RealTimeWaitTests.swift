import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// In real time, the run loop sleeps until something can happen: a timed input line far
/// ahead costs a few turns, not a busy loop (which also grew a task a turn).
@Suite struct RealTimeWaitTests {
    @Test(.timeLimit(.minutes(5))) func aTimedInputLineIsWaitedForWithoutSpinning() async throws {
        let program = try #require(
            Frontend().compile(source: "saga main { let a = take \"x\"; log a.n }", path: "timed.saga").program)
        let output = BufferedOutput()
        let interpreter = Interpreter(program: program, output: output)
        let status = await interpreter.run(
            input: InputSource(lines: [#"{"at":300,"action":{"type":"x","n":1}}"#]))
        #expect(status == .success)
        #expect(output.lines == ["1"])
        // A turn for the line, one for the end of input, one for the timer: a spinning loop
        // would take thousands.
        #expect(interpreter.realTimeTurns < 20)
    }
}
