import SagaCore

/// The pattern of the last `take "type"` that ran, remembered: a saga's loop takes the same
/// type again and again, and reading the pattern from its text (`*`, a glob or an exact type)
/// at every `take` would be work repeated for nothing.
///
/// It always holds a text and the pattern that text spells, so what it gives is what
/// ``ActionPattern/init(string:)`` would.
struct TakePatternMemo {
    private var text = ""
    private var pattern = ActionPattern(string: "")

    /// The pattern `text` spells.
    mutating func pattern(for text: String) -> ActionPattern {
        if Record.sameKey(text, self.text) { return pattern }
        let made = ActionPattern(string: text)
        self.text = text
        pattern = made
        return made
    }
}
