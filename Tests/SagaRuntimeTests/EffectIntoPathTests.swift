import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// `r.x[i] = EFFECT`: the effect's value goes through the path once the effect has given it,
/// the path's indexes computed then; a path that cannot take it fails at the statement.
@Suite struct EffectIntoPathTests {
    @Test func anEffectsValueGoesThroughThePathWhenItComes() async {
        let run = await runSaga(
            """
            func f(x) {
              delay 1
              return x * 2
            }
            saga main {
              var r = { a: { b: [0, 0] }, n: 0 }
              var i = 1
              r.a.b[i] = call f(21)
              r.n = select 7
              log r
              let t = fork { delay 3 }
              r.a.b[i - 1] = join t
              log r
              var s = 5
              try {
                s.x = delay 2
              } catch e {
                log "caught \\(e.message), s is \\(s)"
              }
              s.y = call f(1)
            }
            """)
        #expect(
            run.lines == [
                #"{"a":{"b":[0,42]},"n":7}"#, #"{"a":{"b":[null,42]},"n":7}"#,
                "caught cannot set '.x' of a number, s is 5",
            ])
        #expect(run.errors.first?.contains("cannot set '.y' of a number") == true)
        #expect(run.errors.first?.contains("at saga main (test.saga:20:3)") == true)
    }
}
