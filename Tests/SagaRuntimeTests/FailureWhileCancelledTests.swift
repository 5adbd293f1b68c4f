import SagaRuntime
import Testing

/// An error a `finally` block throws while its task is cancelled is never dropped: an
/// attached task fails with it (and its parent after it, even one being cancelled); a task
/// nothing waits for any more is reported, and the run exits 1.
@Suite struct FailureWhileCancelledTests {
    static let loser = """
        func loser() {
          try { delay 100ms } finally { if cancelled { throw "loser's finally threw" } }
        }
        func boom() {
          delay 5ms
          throw "boom"
        }
        """

    /// The race keeps its winner; the loser's error is reported with its stack.
    @Test func aRaceLosersErrorIsReportedAndTheRaceKeepsItsWinner() async {
        let run = await runSaga(
            Self.loser + """
                saga main {
                  let r = race { w: delay 10ms, l: call loser() }
                  log r
                }
                """)
        #expect(run.lines == [#"{"w":true}"#])
        #expect(run.status == .sagaFailed)
        #expect(run.errors.count == 1)
        #expect(run.errors.first?.hasPrefix("error: func loser, cancelled, failed: loser's finally threw") == true)
        #expect(run.errors.first?.contains("called by race entry at test.saga:8:36") == true, "\(run.errors)")
    }

    /// The all's first error is the one thrown (and caught); the other entry's is reported.
    @Test func anAllsFirstErrorIsCaughtAndTheOtherEntrysIsReported() async {
        let run = await runSaga(
            Self.loser + """
                saga main {
                  try { all [call loser(), call boom()] } catch e { log "caught \\(e.message)" }
                }
                """)
        #expect(run.lines == ["caught boom"])
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.map { $0.prefix(while: { $0 != "\n" }) } == [
                "error: func loser, cancelled, failed: loser's finally threw"
            ])
    }

    /// A cancelled task whose child throws while cancelled fails with that error, which
    /// aborts the task that cancelled it, as `cancel` of the child itself would.
    @Test func aCancelledTasksChildsErrorGoesOnUp() async {
        let run = await runSaga(
            Self.loser + """
                saga main {
                  let t = fork { fork loser(); take "never" }
                  delay 1ms
                  cancel t
                  log "not reached"
                }
                """)
        #expect(run.lines == [])
        #expect(run.status == .sagaFailed)
        #expect(run.errors.first?.hasPrefix("error: saga main failed: loser's finally threw") == true, "\(run.errors)")
    }

    /// Two children that throw while their parent is cancelled: the parent fails with the
    /// first error and still finishes (so its canceller fails with it); the second is reported.
    @Test func aSecondChildsErrorIsReportedAndTheParentStillFinishes() async {
        let run = await runSaga(
            Self.loser + """
                saga main {
                  let t = fork { fork loser(); fork loser(); take "never" }
                  delay 1ms
                  cancel t
                  log "not reached"
                }
                """)
        #expect(run.lines == [])
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.map { $0.prefix(while: { $0 != "\n" }) } == [
                "error: func loser, cancelled, failed: loser's finally threw",
                "error: saga main failed: loser's finally threw",
            ], "\(run.errors)")
    }

    /// A child that fails on its own after a sibling's error aborted their parent: reported,
    /// and the parent finishes.
    @Test func aChildsErrorAfterItsParentFailedIsReported() async {
        let run = await runSaga(
            Self.loser + """
                saga main {
                  fork boom()
                  fork { try { take "never" } finally { throw "second" } }
                  take "never"
                }
                """)
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.map { $0.prefix(while: { $0 != "\n" }) } == [
                "error: fork block, cancelled, failed: second", "error: saga main failed: boom",
            ], "\(run.errors)")
    }
}
