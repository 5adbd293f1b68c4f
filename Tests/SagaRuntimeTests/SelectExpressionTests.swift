import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `select EXPR`: the expression over the store's state as it is when the `select` runs, its
/// value into a variable, through a path, or nowhere; a failure is reported at its line.
@Suite struct SelectExpressionTests {
    @Test func aSelectReadsTheStateAsItIsNowIntoAnyTarget() async {
        let run = await runSaga(
            """
            state { n: 1, items: [{name: "a"}, {name: "b"}], user: { tags: ["x"] } }
            reduce "inc" as a { state.n = state.n + a.by }
            saga main {
              let name = select state.items[1].name
              var r = { y: 0, z: [0, 0] }
              r.y = select state.n * 10
              put "inc" { by: 2 }
              r.z[1] = select state.n + 100
              select state.user.tags
              let t = fork { let seen = select state.n; log "child saw \\(seen)" }
              let after = select state.n + 1
              log [name, r, after]
              try {
                let bad = select state.n.deeper.still
              } catch e {
                log "caught \\(e.message)"
              }
              put "inc" { by: 1 }
              let whole = select
              log whole.n
              select state.n.x.y
            }
            """)
        #expect(
            run.lines == [
                "child saw 3", #"["b",{"y":10,"z":[0,103]},4]"#, "caught cannot read '.deeper' of a number", "4",
            ])
        #expect(run.errors.first?.contains("cannot read '.x' of a number") == true)
        #expect(run.errors.first?.contains("at saga main (test.saga:21:3)") == true)
    }
}
