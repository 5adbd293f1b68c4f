import SagaRuntime
import Testing

/// `close CH` and `flush CH`, beside the golden `effects/channel_close`: takers blocked at the
/// close, an action channel, and `close`/`flush` as ordinary names.
@Suite struct ChannelCloseTests {
    /// Every task waiting on an empty channel ends at its close, in the order they waited,
    /// before the closing task goes on; their `finally` blocks see `cancelled` false.
    @Test func waitingTakersEndInOrderAtTheClose() async {
        let run = await runSaga(
            """
            saga main {
              let ch = channel
              let a = fork { try { take ch } finally { log "a ended, cancelled = \\(cancelled)" } }
              let b = fork { try { take ch } finally { log "b ended" } }
              close ch
              log "closed"
              join [a, b]
              log "joined"
            }
            """)
        #expect(run.lines == ["a ended, cancelled = false", "b ended", "closed", "joined"])
    }

    /// A closed action channel queues no more actions; what it had queued can still be taken.
    @Test func aClosedActionChannelQueuesNoMore() async {
        let run = await runSaga(
            """
            saga main {
              let ch = actionChannel "job"
              put "job" { n: 1 }
              close ch
              put "job" { n: 2 }
              let queued = flush ch
              log queued
            }
            """)
        #expect(run.lines == [#"[{"n":1,"type":"job"}]"#])
    }

    /// `close` and `flush` stay usable as names; as effects they need a channel.
    @Test func theWordsAreNamesElsewhere() async {
        let run = await runSaga(
            """
            saga main {
              let close = 5
              let flush = close + 1
              log flush
              try { close 7 } catch e { log e }
              try { let m = flush "x" } catch e { log e.kind }
            }
            """)
        #expect(
            run.lines == ["6", #"{"kind":"TypeError","message":"close needs a channel, got number"}"#, "TypeError"])
    }
}
