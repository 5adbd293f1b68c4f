import Testing

@testable import SagaLanguage

/// "Did you mean …?": the candidate nearest a misspelt name.
@Suite struct SuggestionsTests {
    /// Two neighbouring letters swapped are one edit, as a letter added, dropped or changed is.
    @Test func aSwapOfTwoNeighbouringLettersIsOneEdit() {
        #expect(Suggestions.editDistance("frok", "fork") == 1)
        #expect(Suggestions.editDistance("tset", "test") == 1)
        #expect(Suggestions.editDistance("tkae", "take") == 1)
        #expect(Suggestions.editDistance("fork", "for") == 1)
        #expect(Suggestions.editDistance("abc", "cba") == 2)
        #expect(Suggestions.editDistance("", "put") == 3)
        #expect(Suggestions.editDistance("select", "select") == 0)
    }

    /// Of candidates as near, one as long as the name goes first: a swap, not a letter more.
    @Test func aSwappedNameSuggestsTheWordItSwaps() {
        #expect(Suggestions.closest(to: "frok", in: Parser.statementKeywords) == "fork")
        #expect(
            Suggestions.closest(to: "tset", in: ["run", "check", "fmt", "ast", "test", "graph", "store"]) == "test")
        #expect(Suggestions.closest(to: "slect", in: Parser.statementKeywords) == "select")
        #expect(Suggestions.closest(to: "xyzzy", in: Parser.statementKeywords) == nil)
    }

    /// The parser says so for an effect.
    @Test func anUnknownEffectWithSwappedLettersSuggestsTheEffect() {
        let result = Frontend().compile(
            source: "saga main {\n  let t = frok worker(1)\n}\nfunc worker(n) { return n }", path: "t.saga")
        #expect(result.renderedDiagnostics.contains("unknown effect 'frok'; did you mean 'fork'?"))
    }
}
