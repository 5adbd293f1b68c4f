import Testing

@testable import SagaRuntime

/// The remembered pattern of the last `take "type"` is always the one its text spells: the
/// same text again gives it back, another text is read afresh.
@Suite struct TakePatternMemoTests {
    private let types = ["ping", "pong", "user/loaded", "user/saved", "*", "", "a*b", "aXb", "u"]

    /// What `pattern` says of each of ``types``.
    private func verdicts(_ pattern: ActionPattern) -> [Bool] {
        types.map { pattern.matches(type: $0) }
    }

    @Test func givesWhatTheTextSpellsWhateverCameBefore() {
        var memo = TakePatternMemo()
        // Texts of the same length one after the other, too: "ping" then "pong", a glob then
        // an exact type.
        let texts = [
            "ping", "ping", "pong", "*", "user/*", "user/*", "ping", "", "a*b", "aXb", "a*b",
            String(repeating: "long", count: 8),
        ]
        for text in texts {
            #expect(verdicts(memo.pattern(for: text)) == verdicts(ActionPattern(string: text)), "\(text)")
        }
    }

    @Test func aTextWithTheSameBytesInAnotherStringIsTheSamePattern() {
        var memo = TakePatternMemo()
        let heap = String(repeating: "user/", count: 4) + "*"
        _ = memo.pattern(for: heap)
        // Equal bytes in other storage: compared by bytes, not by identity.
        let copy = String(decoding: Array(heap.utf8), as: UTF8.self)
        #expect(memo.pattern(for: copy).matches(type: "user/user/user/user/x"))
        #expect(!memo.pattern(for: "user/").matches(type: "user/x"))
    }
}
