import SagaCore
import SagaRuntime
import Testing

/// Input lines are taken in the order of the file, on the virtual clock and in real time
/// alike, and a malformed line stops the run where it is.
@Suite struct InputLineOrderTests {
    static let watcher = """
        saga main {
          every "late" as a { log "late" }
          every "now" as a { log "now" }
          every "mid" as a { log "mid" }
        }
        """

    /// A timed line holds back the lines after it; a line whose moment has passed goes at once.
    @Test(arguments: [true, false])
    func aTimedLineHoldsBackTheLinesAfterIt(virtualTime: Bool) async {
        let run = await runSaga(
            Self.watcher,
            input: [
                #"{"at":30,"action":{"type":"late"}}"#, #"{"type":"now"}"#, #"{"at":10,"action":{"type":"mid"}}"#,
            ], virtualTime: virtualTime)
        #expect(run.errors == [])
        #expect(run.lines == ["late", "now", "mid"])
    }

    /// The lines before a malformed one have their effect; then the root sagas are cancelled
    /// (their `finally` blocks run) and nothing else happens, though timers were still to fire.
    /// (In real time the input is read on a thread of its own: the timer is long enough that a
    /// loaded machine reads the malformed line before it fires.)
    @Test(arguments: [true, false])
    func aMalformedLineStopsTheRunThere(virtualTime: Bool) async {
        let run = await runSaga(
            """
            saga main {
              every "a" as a { log "got a" }
              try {
                for i in range(3) {
                  delay 500ms
                  log "tick"
                }
              } finally {
                log "stopped"
              }
            }
            """, input: [#"{"type":"a"}"#, #"{"type":"b""#], virtualTime: virtualTime)
        #expect(run.lines == ["got a", "stopped"])
        guard case .malformedInput? = run.status else {
            Issue.record("expected malformedInput, got \(String(describing: run.status))")
            return
        }
        #expect(run.errors.last?.hasPrefix("error: input line 2:") == true)
    }
}
