import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// Hostile programs that build huge values from small ones fail with a `RangeError` (which
/// they can catch) instead of taking all memory or time.
@Suite struct ValueSizeLimitTests {
    @Test func aStringDoubledInALoopStopsAtTheLimit() async {
        let run = await runSaga(
            """
            saga main {
              var s = "a"
              try { loop { s = s + s } } catch e { log e.kind; log e.message }
            }
            """)
        // The program-level limit (--max-length, 16 Mi by default) comes first.
        #expect(
            run.lines == [
                "RangeError",
                "a list or string would be longer than 16777216 (elements or UTF-8 bytes); raise the limit with --max-length",
            ])
    }

    @Test func aStringPastTheHardCeilingIsRefusedBeforeItIsBuilt() throws {
        let half = Value.string(String(repeating: "a", count: Value.maxTextBytes / 2 + 1))
        #expect(throws: SagaError.self) { try Value.add(half, half) }
    }

    @Test func aListPastTheLimitIsRefusedBeforeItIsBuilt() throws {
        let half = Value.list([Value](repeating: .null, count: Value.maxListCount / 2 + 1))
        #expect(throws: SagaError.self) { try Value.add(half, half) }
    }

    /// `r = {a: r, b: r}` sixty times: a value of 2^60 leaves in 61 records.
    ///
    /// Each assignment's depth check must not walk the tree (that takes minutes); nor must
    /// `==`. (Its text, cut at 256 MiB, is tested in SagaCoreTests with a smaller limit.)
    @Test func aValueOfSharedPartsIsCheckedInLinearTime() async {
        let run = await runSaga(
            """
            saga main {
              var r = {}
              for i in range(60) { r = {a: r, b: r} }
              log "built"
              log r == r
              log contains([1, r], r)
            }
            """)
        #expect(run.lines == ["built", "true", "true"])
    }

    @Test func aValueOfSharedPartsTooDeepIsStillFound() async {
        let run = await runSaga(
            """
            saga main {
              var r = {}
              try { for i in range(600) { r = {a: r, b: r} } } catch e { log e.kind }
            }
            """)
        #expect(run.lines == ["RangeError"])
    }
}
