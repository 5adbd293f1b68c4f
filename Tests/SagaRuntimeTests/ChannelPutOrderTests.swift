import SagaCore
import Testing

/// A `put` into a channel takes its turn in the dispatch queue, as an action's does and as
/// redux-saga's channel puts do (the orders below are redux-saga 1.4.3's).
@Suite struct ChannelPutOrderTests {
    @Test func aPutByATaskAnotherPutWokeWaitsForThatPutterToGoOn() async {
        let run = await runSaga(
            """
            saga main {
              let ch = channel
              fork {
                let m = take ch
                log "t1 got \\(m)"
                put ch "from t1"
                log "t1 after put"
              }
              fork {
                let m = take ch
                log "t2 got \\(m)"
              }
              delay 10ms
              put ch "a"
              log "main after put a"
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == ["t1 got a", "main after put a", "t2 got from t1", "t1 after put"])
    }

    @Test func aChannelPutWaitsBehindAnActionQueuedBeforeIt() async {
        let run = await runSaga(
            """
            saga main {
              let ch = channel
              every "ping" as p {
                put "pong"
                put ch "after pong"
              }
              every "pong" as p { log "pong" }
              fork { loop { let m = take ch; log m } }
            }
            """, input: [#"{"type":"ping"}"#])
        #expect(run.errors == [])
        #expect(run.lines == ["pong", "after pong"])
    }
}
