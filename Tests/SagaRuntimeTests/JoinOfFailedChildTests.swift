import Testing

@testable import SagaRuntime

/// A task that joins an attached child that fails, when that failure's abort cancels the
/// joiner, is cancelled before it could see the error, as in redux-saga; a joiner the abort
/// does not reach catches the error at its `join`.
@Suite struct JoinOfFailedChildTests {
    @Test func aSiblingThatJoinsTheFailedChildIsCancelled() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              try {
                let a = fork { delay 10; throw "boom" }
                fork {
                  try { join a; log "sibling joined" }
                  catch e { log "sibling caught \\(e.message)" }
                  finally { log "sibling finally, cancelled = \\(cancelled)" }
                }
                delay 100
              } catch e {
                log "parent caught"
              } finally {
                log "parent finally, cancelled = \\(cancelled)"
              }
            }
            """)
        #expect(outcome.lines == ["parent finally, cancelled = false", "sibling finally, cancelled = true"])
        #expect(outcome.status != .success)
    }

    /// The abort goes up through attached tasks: an uncle, below the grandparent, is
    /// cancelled too, once the abort reaches the grandparent.
    @Test func aJoinerBelowAnyTaskTheFailureAbortsIsCancelled() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let ch = channel
              fork {
                let a = fork { delay 10; throw "boom" }
                put ch a
                try { delay 100 } finally { log "parent finally" }
              }
              fork {
                let a = take ch
                try { join a } catch e { log "uncle caught \\(e.message)" }
                finally { log "uncle finally, cancelled = \\(cancelled)" }
              }
              try { delay 200 } finally { log "main finally" }
            }
            """)
        #expect(outcome.lines == ["parent finally", "main finally", "uncle finally, cancelled = true"])
    }

    /// A joiner below a `spawn` is not below the aborted tasks: it catches the error.
    @Test func aJoinerTheAbortDoesNotReachCatchesTheError() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let ch = channel
              spawn {
                let a = take ch
                try { join a } catch e { log "spawned caught \\(e.message)" }
              }
              fork {
                let a = fork { delay 10; throw "boom" }
                put ch a
                delay 100
              }
            }
            """)
        #expect(outcome.lines == ["spawned caught boom"])
    }
}
