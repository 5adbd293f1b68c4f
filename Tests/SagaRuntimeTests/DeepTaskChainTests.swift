import SagaCore
import Testing

/// A chain of tasks each forked by the one before, or each waited for by the one before
/// through `race` or `all`, ends, fails and is cancelled without recursing once per link (a
/// chain of tens of thousands overflowed the stack).
@Suite struct DeepTaskChainTests {
    private static let chain = """
        func chain(n, last) {
          if n == 0 {
            delay 1ms
            if last == "throw" { throw "bottom" }
            if last == "take" { take "never" }
            return 0
          }
          fork chain(n - 1, last)
        }
        """

    @Test func aLongChainOfForksEnds() async {
        let run = await runSaga(Self.chain + #"saga main { fork chain(100000, "return"); log "forked" }"#)
        #expect(run.errors == [])
        #expect(run.lines == ["forked"])
        #expect(run.status == .success)
    }

    @Test func aFailureAtTheBottomOfALongChainFailsTheRoot() async {
        let run = await runSaga(Self.chain + #"saga main { fork chain(100000, "throw"); log "forked" }"#)
        #expect(run.lines == ["forked"])
        #expect(run.errors.first?.hasPrefix("error: saga main failed: bottom") == true, "\(run.errors.prefix(1))")
    }

    @Test func cancellingTheTopOfALongChainEndsItAll() async {
        let run = await runSaga(
            Self.chain + #"saga main { let f = fork chain(100000, "take"); delay 5ms; cancel f; log "cancelled" }"#)
        #expect(run.errors == [])
        #expect(run.lines == ["cancelled"])
    }

    @Test(arguments: [
        "race { a: call rec(n - 1), b: take \"never\" }",
        "all [call rec(n - 1)]",
    ])
    func cancellingALongChainOfCallsThroughCombinatorsEndsItAll(step: String) async {
        let run = await runSaga(
            """
            func rec(n) {
              if n == 0 { take "never" } else { \(step) }
            }
            saga main {
              let t = fork rec(50000)
              delay 1ms
              cancel t
              let r = race { t: delay 1ms, deep: call rec(50000) }
              log "cancelled \\(keys(r))"
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == [#"cancelled ["t"]"#])
    }
}
