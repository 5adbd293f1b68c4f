import SagaRuntime
import Testing

/// A root saga that joins a cancelled task is cancelled too, with no error, as in redux-saga;
/// standard error says why the rest of its body did not run.
@Suite struct JoinCancelledNoteTests {
    @Test func aRootSagaJoiningATaskCancelledBeforeIsNoted() async {
        let run = await runSaga(
            """
            saga main {
              let t = fork { take "never" }
              cancel t
              let v = join t
              log "after join \\(v)"
            }
            """)
        #expect(run.lines.isEmpty)
        #expect(run.errors == ["note: saga main is cancelled: the task it joins at test.saga:4:3 was cancelled"])
        #expect(run.status == .success)
    }

    @Test func aRootSagaWaitingInJoinWhenTheTaskIsCancelledIsNoted() async {
        let run = await runSaga(
            """
            saga main {
              let t = fork { take "never" }
              fork {
                delay 10ms
                cancel t
              }
              join t
              log "not reached"
            }
            """)
        #expect(run.lines.isEmpty)
        #expect(run.errors == ["note: saga main is cancelled: the task it joins at test.saga:7:3 was cancelled"])
    }

    @Test func aForkedJoinerIsCancelledWithoutANote() async {
        let run = await runSaga(
            """
            saga main {
              let t = fork { take "never" }
              fork {
                join t
                log "not reached"
              }
              cancel t
              log "main goes on"
            }
            """)
        #expect(run.lines == ["main goes on"])
        #expect(run.errors.isEmpty)
    }
}
