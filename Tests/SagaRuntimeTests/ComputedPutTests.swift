import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `put "t" {k: EXPR, …}` whose fields are computed: the action is the record with `type`
/// added, processed in redux-saga's order, and a field that fails fails the `put` at its line.
@Suite struct ComputedPutTests {
    private let source = """
        state { total: 0, ids: [] }
        reduce "add" as a { state.total = state.total + a.by; state.ids = state.ids + [a.id] }
        saga main {
          fork {
            loop {
              let a = take "add"
              log "took \\(a.id)"
            }
          }
          var i = 0
          while i < 3 {
            let sent = put "add" { id: "n\\(i)", by: i * 10 }
            log "sent \\(sent)"
            i = i + 1
          }
          let s = select state
          log s
          let bad = 5
          var x = "unchanged"
          try {
            x = put "add" { id: bad.q, by: 1 }
          } catch e {
            log "caught \\(e.message), x is \\(x)"
          }
          put "add" { id: bad.nope, by: 2 }
        }
        """

    @Test func anActionWithComputedFieldsIsPutInOrderAndFailsAtItsLine() async {
        let run = await runSaga(source)
        #expect(
            run.lines == [
                "took n0", #"sent {"by":0,"id":"n0","type":"add"}"#,
                "took n1", #"sent {"by":10,"id":"n1","type":"add"}"#,
                "took n2", #"sent {"by":20,"id":"n2","type":"add"}"#,
                #"{"ids":["n0","n1","n2"],"total":30}"#,
                "caught cannot read '.q' of a number, x is unchanged",
            ])
        #expect(run.errors.first?.contains("cannot read '.nope' of a number") == true)
        #expect(run.errors.first?.contains("at saga main (test.saga:25:3)") == true)
    }

    /// A field named `type` is still refused, with the message a payload holding `type` gets.
    @Test func aComputedPayloadMayNotHoldType() async {
        let run = await runSaga(
            """
            saga main {
              let t = "other"
              put "add" { type: t, by: 1 }
            }
            """)
        #expect(run.errors.first?.contains(#"the payload of put "add" must not hold 'type'"#) == true)
    }
}
