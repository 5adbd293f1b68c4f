import SagaRuntime
import Testing

/// A task still waiting, as the run ends, on a `join` that could never end (the task it joins
/// waits for it in turn) is warned of on standard error; the run's status is unchanged.
@Suite struct JoinDeadlockWarningTests {
    /// A child joining its own parent: the parent waits for its child, the child for its
    /// parent.
    @Test func aChildJoiningItsParentIsWarnedOf() async {
        let run = await runSaga(
            """
            saga main {
              let ch = channel
              let p = fork {
                fork {
                  let parent = take ch
                  try { join parent } finally { log "child finally" }
                }
                log "parent body done"
              }
              put ch p
              log "main done"
            }
            """)
        #expect(run.lines == ["parent body done", "main done"])
        #expect(
            run.errors == [
                "warning: the run ended with fork block waiting at test.saga:6:13 on a join that can never end "
                    + "(the task it joins waits, through its children, calls and joins, for it); "
                    + "its finally blocks did not run"
            ])
        #expect(run.status == .success)
    }

    /// Two tasks joining each other are both warned of, each at its `join`.
    @Test func twoTasksJoiningEachOtherAreBothWarnedOf() async {
        let run = await runSaga(
            """
            saga main {
              let c1 = channel
              let c2 = channel
              let a = fork { let other = take c1; join other }
              let b = fork { let other = take c2; join other }
              put c1 b
              put c2 a
            }
            """)
        #expect(run.errors.count == 2)
        for at in ["test.saga:4:39", "test.saga:5:39"] {
            #expect(run.errors.contains { $0.contains("waiting at \(at) on a join that can never end") })
        }
    }

    /// A join of a task that waits for an action that never comes is not a deadlock: the run
    /// ends as it did, without a word.
    @Test func aJoinOfATaskWaitingForAnActionIsNotWarnedOf() async {
        let run = await runSaga(
            """
            saga main {
              let t = fork { take "never" }
              let u = spawn { join t }
              log "main done"
            }
            """)
        #expect(run.lines == ["main done"])
        #expect(run.errors.isEmpty)
    }
}
