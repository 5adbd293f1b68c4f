import SagaRuntime
import Testing

/// `cancel [T, …]`: each task in list order; a list with anything but tasks is refused whole.
@Suite struct CancelListTests {
    /// The tasks are cancelled in list order, before `cancel` gives back.
    @Test func eachTaskIsCancelledInListOrder() async {
        let run = await runSaga(
            """
            saga main {
              let a = fork { try { take "never" } finally { log "a cancelled: \\(cancelled)" } }
              let b = fork { try { take "never" } finally { log "b cancelled: \\(cancelled)" } }
              cancel [b, a]
              log "after"
            }
            """)
        #expect(run.lines == ["b cancelled: true", "a cancelled: true", "after"])
    }

    /// The current task, in the list wherever it stands, is cancelled last: its `finally`
    /// runs after the others'.
    @Test(arguments: ["[other, me]", "[me, other]"])
    func theCurrentTaskIsCancelledAfterTheOthers(list: String) async {
        let run = await runSaga(
            """
            saga main {
              let handoff = channel
              let other = spawn { try { take "never" } finally { log "other finally" } }
              let t = fork {
                let me = take handoff
                try { cancel \(list); log "not reached" } finally { log "self finally" }
              }
              put handoff t
              log "main after put"
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["other finally", "self finally", "main after put"])
    }

    /// Anything but a task in the list is a TypeError, and no task is cancelled.
    @Test func aListWithSomethingElseIsRefusedWhole() async {
        let run = await runSaga(
            """
            saga main {
              let a = fork { try { take "never" } finally { log "a cancelled" } }
              try { cancel [a, 5] } catch e { log e }
              try { cancel "x" } catch e { log e.kind }
              cancel a
            }
            """)
        #expect(
            run.lines == [
                #"{"kind":"TypeError","message":"cancel needs tasks, got number in the list"}"#, "TypeError",
                "a cancelled",
            ])
    }
}
