import SagaCore
import Testing

/// A compensation is a task of its own: one that cancels itself ends, and the transaction
/// goes on with the others and throws the body's error; a task already cancelled whose
/// compensation cancels itself still ends, and its parent's failure is reported.
@Suite struct CancelledCompensationTests {
    @Test func aCompensationThatCancelsItselfLetsTheOthersRun() async {
        let run = await runSaga(
            """
            saga main {
              try {
                transaction {
                  compensate { log "comp A runs" }
                  compensate { cancel; log "comp B after cancel" }
                  throw "body failed"
                }
              } catch e { log "caught \\(e.message)" } finally { log "finally cancelled=\\(cancelled)" }
              log "main goes on"
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["comp A runs", "caught body failed", "finally cancelled=false", "main goes on"])
    }

    @Test func aCancelledTasksSelfCancellingCompensationDoesNotLoseItsParentsFailure() async {
        let run = await runSaga(
            """
            saga main {
              fork { transaction { compensate { cancel }; take "never" } }
              fork { delay 1ms; throw "child failed" }
              take "never"
            }
            """)
        #expect(run.errors.first?.hasPrefix("error: saga main failed: child failed") == true, "\(run.errors)")
        #expect(run.status == .sagaFailed)
    }
}
