import SagaCore

/// The recursive-descent parser of `.saga` files (§1–§5 and §10 of the contract).
///
/// It reports every syntax error it can find in one run: after an error it records a
/// diagnostic and skips to the end of the statement (or to the next declaration), so one
/// mistake gives one message. Names are left unresolved: every ``Variable/slot`` is -1 and
/// every ``Callee`` is ``Callee/named(_:_:)``; the checker resolves them.
///
/// ```swift
/// let file = SourceFile(path: "counter.saga", text: "saga main { log 1 }")
/// let (unit, diagnostics) = Parser.parse(file, fileIndex: 0)
/// ```
public struct Parser {
    /// How deeply brackets, blocks and unary operators may nest before the parser gives
    /// up with "nesting too deep" instead of overflowing the stack.
    static let maxDepth = 256

    var tokens: [Token]
    var pos = 0
    /// Index of the last token consumed (for "expected … after 'x'" messages).
    var previousIndex = -1
    let file: Int32
    var diagnostics: [Diagnostic]
    /// Inside `( )`, `[ ]`, a record or a `race`/`all` entry list: newlines are skipped.
    var ignoresNewlines = false
    var depth = 0

    init(tokens: [Token], file: Int32, diagnostics: [Diagnostic]) {
        self.tokens = tokens
        self.file = file
        self.diagnostics = diagnostics
    }

    /// Parses one source file.
    ///
    /// - Parameters:
    ///   - file: the source text and its path.
    ///   - fileIndex: the file's index in the program's file table, stored in every location.
    /// - Returns: the declarations that parsed, and every lexical and syntax error, in
    ///   source order. The unit is usable (if incomplete) even when there are errors.
    public static func parse(_ file: SourceFile, fileIndex: Int32) -> (unit: SourceUnit, diagnostics: [Diagnostic]) {
        let (tokens, lexerDiagnostics) = Lexer.tokenize(file, fileIndex: fileIndex)
        var parser = Parser(tokens: tokens, file: fileIndex, diagnostics: lexerDiagnostics)
        let declarations = parser.parseDeclarations()
        let sorted = parser.diagnostics.enumerated().sorted { a, b in
            let l = a.element.location
            let r = b.element.location
            if l.line != r.line { return l.line < r.line }
            if l.column != r.column { return l.column < r.column }
            return a.offset < b.offset
        }.map(\.element)
        return (SourceUnit(file: fileIndex, declarations: declarations), sorted)
    }

    // MARK: Tokens

    /// The kind of the current token.
    @inline(__always)
    var kind: TokenKind { tokens[pos].kind }

    /// The current token.
    @inline(__always)
    var current: Token { tokens[pos] }

    /// The kind of the token after the current one.
    var nextKind: TokenKind {
        pos + 1 < tokens.count ? tokens[pos + 1].kind : .eof
    }

    /// The location of a token.
    @inline(__always)
    func location(_ token: Token) -> SourceLocation {
        SourceLocation(file: file, line: token.line, column: token.column)
    }

    /// The location of the current token.
    var here: SourceLocation { location(tokens[pos]) }

    /// Consumes the current token (never the EOF) and, where newlines do not count, the
    /// newlines after it.
    @discardableResult
    @inline(__always)
    mutating func advance() -> Token {
        let token = tokens[pos]
        if token.kind != .eof {
            previousIndex = pos
            pos += 1
        }
        if ignoresNewlines { skipNewlines() }
        return token
    }

    @inline(__always)
    mutating func skipNewlines() {
        while tokens[pos].kind == .newline { pos += 1 }
    }

    /// Consumes the current token if it is of `kind`.
    @inline(__always)
    mutating func match(_ kind: TokenKind) -> Bool {
        guard tokens[pos].kind == kind else { return false }
        advance()
        return true
    }

    /// Consumes a token of `kind`, or reports `message` at the current token.
    @discardableResult
    mutating func expect(_ kind: TokenKind, _ message: @autoclosure () -> String) throws -> Token {
        guard tokens[pos].kind == kind else { throw fail("\(message()), found \(found)") }
        return advance()
    }

    /// Switches newline significance; returns the previous setting to restore later.
    /// Restore it *before* consuming the closing bracket, so that the newline after the
    /// bracket keeps its meaning in the enclosing context.
    @inline(__always)
    mutating func ignoreNewlines(_ ignore: Bool) -> Bool {
        let saved = ignoresNewlines
        ignoresNewlines = ignore
        if ignore { skipNewlines() }
        return saved
    }

    /// `true` when the current token is on the same line as the last one consumed: the
    /// rule that makes `put X` + newline the one-operand form.
    var isOnSameLine: Bool {
        previousIndex >= 0 && tokens[pos].kind != .newline && tokens[pos].line == tokens[previousIndex].line
    }

    /// `true` when the current token touches the one consumed last, with no space between:
    /// `len(x)` and `xs[0]` are a call and an index, but `put ch (x)` and `put ch [1]` put
    /// a value into a channel.
    var isDirectlyAfterPrevious: Bool {
        guard previousIndex >= 0 else { return false }
        let before = tokens[previousIndex]
        let length: Int
        switch before.kind {
        case .identifier: length = before.text.utf8.count
        case .rightParen, .rightBracket, .rightBrace: length = 1
        default:
            guard before.kind.isKeyword else { return false }
            length = before.kind.text.utf8.count
        }
        let token = tokens[pos]
        return token.line == before.line && Int(token.column) == Int(before.column) + length
    }

    /// The kind of the first token at or after `pos` that is not a newline.
    func kindAfterNewlines() -> (kind: TokenKind, index: Int) {
        var i = pos
        while tokens[i].kind == .newline { i += 1 }
        return (tokens[i].kind, i)
    }

    /// Enters one level of nesting, failing with "nesting too deep" past ``maxDepth``.
    @inline(__always)
    mutating func enterNesting() throws {
        depth += 1
        if depth > Parser.maxDepth { throw fail("nesting too deep") }
    }
}
