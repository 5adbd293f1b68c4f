// The formatter's view of a source file: each token with its exact source text, and the
// comments and line breaks (trivia) that came before it.

/// One token of the source, as the formatter re-emits it.
struct FormatToken {
    /// Comments and line breaks between two tokens, in source order.
    enum Trivia {
        /// This many line breaks (outside comments) in a row.
        case newlines(Int)
        /// A `// …` comment (without its line break) or a `/* … */` one, as written.
        case comment(String, isLine: Bool)
    }

    var kind: TokenKind
    /// The token exactly as written: strings, numbers and durations are never re-spelled.
    var text: String
    /// Where the token started in the source (1-based, columns in Unicode scalars).
    var line: Int32
    var column: Int32
    /// `true` when nothing at all (no space, no comment) separates it from the previous
    /// token: `len(x)` and `xs[0]` must stay touching, `put ch (x)` must stay apart.
    var touchesPrevious: Bool
    /// The comments and line breaks before the token.
    var leading: [Trivia]

    /// `true` when ``leading`` holds a comment.
    var hasLeadingComment: Bool {
        leading.contains { if case .comment = $0 { return true } else { return false } }
    }
}
