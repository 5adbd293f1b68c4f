import SagaCore
import Testing

/// A chain of tasks each forked by the one before ends, fails and is cancelled without
/// recursing once per link (a chain of tens of thousands overflowed the stack).
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
}
