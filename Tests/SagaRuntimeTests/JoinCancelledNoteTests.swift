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

    /// The join may be in a saga function the root calls, or an entry of its `race`: the
    /// cancellation reaches the root all the same.
    @Test func aRootSagaCancelledThroughACallOrARaceIsNoted() async {
        let called = await runSaga(
            """
            func waitFor(t) {
              let r = join t
              return r
            }
            saga main {
              let t = fork { take "never" }
              cancel t
              let r = call waitFor(t)
              log "not reached"
            }
            """)
        #expect(called.lines.isEmpty)
        #expect(called.errors == ["note: saga main is cancelled: the task it joins at test.saga:2:3 was cancelled"])
        let raced = await runSaga(
            """
            saga main {
              let t = fork { take "never" }
              fork {
                delay 5ms
                cancel t
              }
              race { j: join t, d: delay 100ms }
              log "not reached"
            }
            """)
        #expect(raced.lines.isEmpty)
        #expect(raced.errors.count == 1)
        #expect(raced.errors.first?.hasPrefix("note: saga main is cancelled: the task it joins") == true)
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
