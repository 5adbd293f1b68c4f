import SagaCore
import Testing

/// An `actionChannel` takes an action in the order the tasks waiting for it began to wait, as
/// redux-saga's does: from when it was made, and again from its turn after each action.
@Suite struct ActionChannelOrderTests {
    @Test func aChannelTakesItsActionInItsPlaceAmongThePlainTakes() async {
        let run = await runSaga(
            """
            saga first {
              take "x"
              log "first"
            }
            saga second {
              let q = actionChannel "x"
              take q
              log "second"
            }
            saga third {
              take "x"
              log "third"
            }
            """, input: [#"{"type":"x"}"#])
        #expect(run.errors == [])
        #expect(run.lines == ["first", "second", "third"])
    }

    /// A task that took the action before the channel did, and waits again before the
    /// channel's turn, stays ahead of it.
    @Test func aChannelWaitsAgainFromItsTurn() async {
        let run = await runSaga(
            """
            saga a { loop { take "x"; log "a" } }
            saga b {
              let q = actionChannel "x"
              loop { take q; log "b" }
            }
            """, input: [#"{"type":"x"}"#, #"{"type":"x"}"#, #"{"type":"x"}"#])
        #expect(run.lines == ["a", "b", "a", "b", "a", "b"])
    }

    /// `throttle` waits on an action channel: a watcher started before it runs first.
    @Test func aThrottleStartedLaterRunsAfterAnEarlierWatcher() async {
        let run = await runSaga(
            """
            saga main {
              every "x" as a { log "every" }
              throttle 100ms "x" as a { log "throttle" }
            }
            """, input: [#"{"type":"x"}"#])
        #expect(run.lines == ["every", "throttle"])
    }
}
