import SagaRuntime
import Testing

/// A string literal indexed with no space between: `"abc"[1]`, as a list literal or a name is.
@Suite struct StringLiteralIndexTests {
    /// Plain and interpolated literals, non-ASCII text before the index, in `log` and `let`.
    @Test func aLiteralTouchedByABracketIsIndexed() async {
        let run = await runSaga(
            """
            saga main {
              log "abc"[1]
              let n = 7
              log "a\\(n)c"[1]
              let x = "é!"[1]
              log x
              log len("abc"[0] + "de")
            }
            """)
        #expect(run.lines == ["b", "7", "!", "3"])
    }
}
