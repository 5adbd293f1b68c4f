import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A `put` made when nothing else is waiting to run is processed on the spot instead of
/// through the dispatch queue (`Interpreter.dispatchAtOnce`).
///
/// Nobody may be able to tell: the order of every task and action stays the queue's.
@Suite struct PutAtOnceTests {
    @Test func aTakerWokenByThePutRunsBeforeThePutterGoesOn() async {
        let run = await runSaga(
            """
            saga waiter { let a = take "go"; log "taker \\(a.n)" }
            saga putter { let p = put "go" { n: 1 }; log "putter \\(p.n)" }
            """)
        #expect(run.lines == ["taker 1", "putter 1"])
        #expect(run.status == .success)
    }

    /// The forked child puts while its parent still waits to run: the action is processed
    /// only after the parent has gone back to its `take`, so the parent sees it.
    @Test func aPutMadeWhileOtherWorkIsReadyWaitsForIt() async {
        let run = await runSaga(
            """
            saga main {
              loop {
                let a = take "ping"
                log "ping \\(a.n)"
                if a.n < 3 { fork { put "ping" { n: a.n + 1 } } }
              }
            }
            """, input: [#"{"type":"ping","n":1}"#])
        #expect(run.lines == ["ping 1", "ping 2", "ping 3"])
    }

    /// As when the task blocked on the `put` and was resumed, the count of steps without an
    /// effect starts again after each one.
    @Test func aPutProcessedOnTheSpotCountsAsAnEffect() async {
        let source = """
            state { n: 0 }
            reduce "tick" as a { state.n = state.n + 1 }
            saga main { for i in range(1000) { put "tick" } }
            """
        let run = await runConfigured(source) { $0.maxSteps = 100 }
        #expect(run.status == .success)
        #expect(run.errors.isEmpty)
        #expect(run.state == ["n": 1000])
    }

    /// An action already queued is processed before a later `put`'s.
    @Test func queuedActionsKeepTheirOrder() async {
        let run = await runSaga(
            """
            saga watch { loop { let a = take "*"; log a.type } }
            saga first { put "x" }
            saga second { put "y" }
            """)
        #expect(run.lines == ["x", "y"])
    }
}
