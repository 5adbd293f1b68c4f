import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `take "t" where it.PATH == VALUE`, with VALUE fixed while the task waits, is kept under
/// VALUE (the scheduler's taker index): an action meets only the takers under its own path's
/// value.
///
/// What a run prints must be what evaluating every condition for every action gives: the same
/// tasks woken, in the order they began to wait, and the same errors.
@Suite struct KeyedTakeTests {
    /// Keyed, plain, `*` and `&&` takers woken by one action, in the order they began to wait.
    @Test func oneActionWakesEveryKindOfTakerInWaitOrder() async {
        let run = await runSaga(
            """
            saga main {
              fork { let a = take "t" where it.id == 1; log "keyed" }
              fork { let a = take "t"; log "plain" }
              fork { let a = take "*"; log "any" }
              fork { let a = take "t" where 1 == it.id && it.ok; log "keyed and" }
              fork { let a = take "t" where it.id == 2; log "other id" }
              fork { let a = take "t" where it.id == 1 && !it.ok; log "keyed, not ok" }
              fork { let a = take ["t", "u"] where it.id == 1; log "list" }
            }
            """, input: [#"{"type":"t","id":1,"ok":true}"#])
        #expect(run.lines == ["keyed", "plain", "any", "keyed and", "list"])
        #expect(run.errors == [])
    }

    /// Each of many tasks waiting for its own id is woken by its action alone, in the order
    /// the actions come, whatever order the tasks began to wait in.
    @Test func eachTaskIsWokenByItsOwnAction() async {
        let run = await runSaga(
            """
            saga main {
              for i in range(100) {
                fork {
                  let a = take "done" where it.element.id == i
                  log "\\(i) got \\(a.element.n)"
                }
              }
            }
            """, input: (0..<100).reversed().map { #"{"type":"done","element":{"id":\#($0),"n":\#($0 * 2)}}"# })
        #expect(run.lines == (0..<100).reversed().map { "\($0) got \($0 * 2)" })
        #expect(run.status == .success)
    }

    /// Numbers compare by value, as `==` does: a taker of `1` is woken by `1.0`.
    @Test func anIntegerKeyMatchesAnEqualDouble() async {
        let run = await runSaga(
            """
            saga main { let a = take "t" where it.id == 1; log a.id }
            """, input: [#"{"type":"t","id":1.0}"#])
        #expect(run.lines == ["1"])
    }

    /// The fixed side is read from the task's variables: a later value of the same variable
    /// in another task does not move the first taker.
    @Test func theFixedSideIsTheTasksOwnValue() async {
        let run = await runSaga(
            """
            saga main {
              var id = "a"
              fork { let a = take "t" where it.id == id; log "first \\(a.id)" }
              id = "b"
              fork { let a = take "t" where it.id == id; log "second \\(a.id)" }
            }
            """, input: [#"{"type":"t","id":"b"}"#, #"{"type":"t","id":"a"}"#])
        #expect(run.lines == ["second b", "first a"])
    }

    /// An action whose path cannot be read (`.id` of a string) fails every taker of that path,
    /// in the order they began to wait, as evaluating each condition does.
    @Test func anActionWhosePathFailsFailsTheKeyedTakers() async {
        let run = await runSaga(
            """
            saga main {
              fork {
                try { let a = take "t" where it.element.id == 1 } catch e { log "first: \\(e.message)" }
              }
              fork {
                try { let a = take "t" where it.element.id == 2 } catch e { log "second: \\(e.message)" }
              }
            }
            """, input: [#"{"type":"t","element":"text"}"#])
        #expect(
            run.lines == [
                "first: cannot read '.id' of a string", "second: cannot read '.id' of a string",
            ])
    }

    /// A fixed side that fails to evaluate fails the taker when an action of its type comes,
    /// as it would if takers were not keyed.
    @Test func aFixedSideThatFailsFailsWhenAnActionComes() async {
        let run = await runSaga(
            """
            saga main {
              let x = "text"
              try { let a = take "t" where it.id == x.y } catch e { log "failed: \\(e.message)" }
            }
            """, input: [#"{"type":"other"}"#, #"{"type":"t","id":1}"#])
        #expect(run.lines == ["failed: cannot read '.y' of a string"])
    }

    /// A keyed taker that lost a race is gone: its action later wakes nothing, and the task
    /// that took it is not run twice.
    @Test func aTakerThatLostARaceIsNotWoken() async {
        let run = await runSaga(
            """
            saga main {
              let r = race { ack: take "t" where it.id == 7, timeout: delay 10 }
              log r
              let a = take "t"
              log "then \\(a.id)"
            }
            """, input: [#"{"at":20,"action":{"type":"t","id":7}}"#])
        #expect(run.lines == [#"{"timeout":true}"#, "then 7"])
    }

    /// A task blocked on a keyed take ends at END, as any taker does, in wait order.
    @Test func keyedTakersEndAtEnd() async {
        let run = await runSaga(
            """
            saga a { try { let x = take "t" where it.id == 1 } finally { log "a ends" } }
            saga b { try { let x = take "t" } finally { log "b ends" } }
            saga c { try { let x = take "t" where it.id == 2 } finally { log "c ends" } }
            """)
        #expect(run.lines == ["a ends", "b ends", "c ends"])
    }
}
