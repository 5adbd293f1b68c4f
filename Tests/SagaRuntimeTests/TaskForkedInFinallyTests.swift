import Testing

@testable import SagaRuntime

/// A task started by a `finally` block while its task is cancelled: forked, it is an attached
/// child, cancelled once the `finally` blocks have run; spawned, it runs on.
@Suite struct TaskForkedInFinallyTests {
    private func program(starting verb: String) -> String {
        """
        saga main {
          let t = fork {
            try { take "never" } finally {
              \(verb) {
                try { log "clean-up starts"; delay 5; log "clean-up done" }
                finally { log "clean-up finally, cancelled = \\(cancelled)" }
              }
              log "finally ends"
            }
          }
          delay 1
          cancel t
          log "after cancel"
        }
        """
    }

    @Test func aForkedTaskIsCancelledWhenTheFinallyBlocksHaveRun() async {
        let outcome = await runWithAndWithoutShortCuts(program(starting: "fork"))
        #expect(
            outcome.lines == [
                "clean-up starts", "finally ends", "clean-up finally, cancelled = true", "after cancel",
            ])
    }

    @Test func aSpawnedTaskRunsOn() async {
        let outcome = await runWithAndWithoutShortCuts(program(starting: "spawn"))
        #expect(
            outcome.lines == [
                "clean-up starts", "finally ends", "after cancel", "clean-up done",
                "clean-up finally, cancelled = false",
            ])
    }
}
