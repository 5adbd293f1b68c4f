import SagaCore

/// A token as the lexer hands it to the parser: its kind, where it starts, and a reference to
/// what it carries, with no `String` or ``Value`` inside.
///
/// It holds nothing to retain, so the lexer's queue and the parser's window copy it as plain
/// bytes: a token with a `String` or `Value` payload would cost an outlined copy and a release
/// at each of the several copies on its way. The parser makes an identifier's `String` from
/// the source bytes only where the tree needs it (``Parser/text(_:)``).
struct CompactToken: Sendable {
    var kind: TokenKind
    /// `true` when ``value`` holds a `Double`'s bit pattern.
    var isDouble = false
    /// 1-based line.
    var line: Int32
    /// 1-based column, in Unicode scalars.
    var column: Int32
    /// An identifier's length in bytes; a string segment's length in columns up to and with
    /// its closing quote (`.string`, `.stringTail`); 0 for other tokens.
    var count = 0
    /// An identifier's byte offset in the source; a string segment's index in
    /// ``Lexer/strings``; a number's `Int` (or `Double` bits); 0 for other tokens.
    var value = 0

    /// A token that carries nothing but its kind.
    init(kind: TokenKind, line: Int32, column: Int32) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    /// A number token; `number` is `.int` or `.double` (anything else reads back as 0).
    init(kind: TokenKind, line: Int32, column: Int32, number: Value) {
        self.init(kind: kind, line: line, column: column)
        switch number {
        case .int(let i): value = i
        case .double(let d):
            value = Int(Int64(bitPattern: d.bitPattern))
            isDouble = true
        default: break
        }
    }

    /// A number literal's value (`.int` or `.double`); `.int(0)` for other tokens.
    var number: Value {
        isDouble ? .double(Double(bitPattern: UInt64(bitPattern: Int64(value)))) : .int(value)
    }
}
