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

    /// A `take` on a channel with a `where` is a TypeError (catchable), not a take of the
    /// oldest message whatever the condition says; the message stays in the channel.
    @Test func aTakeOnAChannelHasNoWhere() async {
        let run = await runSaga(
            """
            saga main {
              let ch = channel
              put ch { id: 1 }
              try { let m = take ch where false; log "took \\(m)" } catch e { log "\\(e.kind): \\(e.message)" }
              let ac = actionChannel "a"
              put "a" { id: 1 }
              try { let x = take ac where it.id == 2; log "took \\(x)" } catch e { log e.kind }
              let m = take ch
              let x = take ac
              log [m, x]
            }
            """)
        #expect(
            run.lines == [
                "TypeError: a take on a channel has no 'where': its messages are taken in order (test the message after the take)",
                "TypeError", #"[{"id":1},{"id":1,"type":"a"}]"#,
            ], "\(run.errors)")
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
