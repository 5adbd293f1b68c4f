import SagaCore

/// One token: its kind, where it starts, and its payload (a name, a string's text, a number).
struct Token: Sendable {
    /// What the token carries besides its kind.
    enum Payload: Sendable {
        case none
        /// An identifier's name or a string segment's decoded text.
        case text(String)
        /// A number or duration literal, as a value (`.int` or `.double`).
        case number(Value)
    }

    var kind: TokenKind
    /// 1-based line.
    var line: Int32
    /// 1-based column, in Unicode scalars.
    var column: Int32
    var payload: Payload

    /// A token with `payload`.
    init(kind: TokenKind, line: Int32, column: Int32, payload: Payload) {
        self.kind = kind
        self.line = line
        self.column = column
        self.payload = payload
    }

    /// The token `compact`, with `text`, its name or string text as ``Lexer/text(of:)`` gives it.
    init(_ compact: CompactToken, text: String) {
        let payload: Payload
        switch compact.kind {
        case .number: payload = .number(compact.number)
        case .identifier, .string, .stringHead, .stringMiddle, .stringTail: payload = .text(text)
        default: payload = .none
        }
        self.init(kind: compact.kind, line: compact.line, column: compact.column, payload: payload)
    }

    /// The name or string text of the token (empty when it has none).
    var text: String {
        if case .text(let s) = payload { return s }
        return ""
    }

    /// How a diagnostic names this token: `'foo'` for an identifier, else its kind's spelling
    /// (`'{'`, `newline`, …).
    var description: String {
        switch kind {
        case .identifier: return "'\(text)'"
        default: return kind.spelling
        }
    }
}
