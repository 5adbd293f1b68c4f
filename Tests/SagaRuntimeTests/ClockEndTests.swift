import SagaCore
import SagaRuntime
import Testing

/// The virtual clock ends at `Int.max` milliseconds: a `delay` that would pass it fails with a
/// `RangeError`, which the saga may catch, rather than stopping the process.
@Suite struct ClockEndTests {
    @Test func delaysOfTheLongestLengthMeetTheClocksEnd() async {
        let source = """
            saga main {
              var n = 0
              try {
                loop {
                  delay 9007199254740992
                  n = n + 1
                }
              } catch e {
                log "\\(e.kind) after \\(n) delays at \\(now()): \\(e.message)"
              }
            }
            """
        let run = await runSaga(source)
        #expect(run.status == .success)
        // 1,023 whole delays of 2^53 fit below 2^63.
        #expect(
            run.lines == [
                "RangeError after 1023 delays at 9214364837600034816: delay 9007199254740992: the clock, at "
                    + "9214364837600034816, would pass its end (9223372036854775807 ms)"
            ], "\(run.lines) \(run.errors)")
    }

    @Test func aDelayAfterInputTimedAtTheEndFails() async {
        let source = """
            saga main {
              every "a" as a { delay 10 }
            }
            """
        let run = await runSaga(source, input: [#"{"at":9223372036854775807,"action":{"type":"a"}}"#])
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.contains {
                $0.contains("saga main failed: delay 10: the clock, at 9223372036854775807, would pass its end")
            }, "\(run.errors)")
    }
}
