import SagaCore

/// The recursive-descent parser of `.saga` files, whose syntax Sagas/README.md describes.
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
package struct Parser {
    /// How deeply brackets, blocks, unary operators and chains of binary operators and
    /// member steps may nest before the parser gives up with "nesting too deep" instead of
    /// overflowing the stack (here, or later in the checker and the evaluator, which walk
    /// the tree recursively on threads with small stacks).
    static let maxDepth = 256
    /// The error past ``maxDepth``.
    static let tooDeep =
        "nesting too deep: more than 256 levels of brackets, blocks or operators in a row; "
        + "break the expression up with let"

    var lexer: Lexer
    /// The lexer's tokens (``Lexer/tokens``): the current token, one behind, and those lexed
    /// ahead.
    let window: TokenWindow
    /// Absolute index of the current token.
    var pos = 0
    /// The last token consumed by ``advance()`` (for "after 'x'" and same-line rules).
    var previous = CompactToken(kind: .newline, line: 0, column: 0)
    /// The current token, copied from the window once at each move rather than read from it
    /// (with a bounds check) at every look.
    private(set) var current = CompactToken(kind: .newline, line: 0, column: 0)
    let file: Int32
    var diagnostics: [Diagnostic] = []
    /// Inside `( )`, `[ ]`, a record or a `race`/`all` entry list: newlines are skipped.
    var ignoresNewlines = false
    var depth = 0
    /// Where the first newline after code that a block skipped since the innermost block
    /// opened stands: the end of that line (see ``parseBlock(after:)``).
    var endOfLastLine: SourceLocation?
    /// Brackets consumed and not yet closed: where a broken statement's recovery looks to
    /// know which closers to skip.
    let openBrackets = BracketStack()
    /// The identifiers met so far, each made into a `String` once (see ``NameInterner``).
    var names = NameInterner()
    /// Whether variables get the slots the checker will give them (Parser+Slots.swift), or
    /// keep -1 as documented for ``parse(_:fileIndex:)``.
    var plansSlots = false
    /// The variables visible where the parser is, for planning slots.
    let plannedScopes = ScopeStack()
    /// The next slot of the top-level declaration being parsed, for planning slots.
    var nextPlannedSlot = 0
    /// For planning callees: by name number, the index among this file's functions of the
    /// first function of that (undotted) name parsed so far, or -1.
    var plannedFunctions: [Int32] = []
    /// How many function declarations of this file have been parsed, for planning callees,
    /// counting from the unit's ``SourceUnit/plannedFunctionsBase``.
    var functionsParsed: Int32 = 0

    /// The room each list the parser makes starts with (a block's statements, a call's
    /// arguments, a record's fields, …).
    ///
    /// Growing from empty would reallocate a block's list two or three times. Room for four
    /// would leave most of it unused and make a large file's tree take more memory (more pages
    /// to fault), and a list of three words fits in the same malloc block as one of two.
    static let listRoom = 2

    init(lexer: Lexer, file: Int32) {
        self.lexer = lexer
        self.file = file
        window = lexer.tokens
        fill()
    }

    /// Parses one source file.
    ///
    /// - Parameters:
    ///   - file: the source text and its path.
    ///   - fileIndex: the file's index in the program's file table, stored in every location.
    /// - Returns: the declarations that parsed, and every lexical and syntax error, in
    ///   source order. The unit is usable (if incomplete) even when there are errors.
    package static func parse(_ file: SourceFile, fileIndex: Int32) -> (unit: SourceUnit, diagnostics: [Diagnostic]) {
        DeepStack.run {
            var names = NameInterner()
            return parse(file, fileIndex: fileIndex, names: &names, plansSlots: false, into: DeclarationList.self)
        }
    }

    /// Parses one source file, numbering its identifiers in `names`, which the other files of
    /// the program share (see ``NameInterner``), and hands each declaration to a `Sink`.
    ///
    /// `plansSlots` says whether each variable gets the slot the checker will give it (the
    /// checker then leaves the expressions whose variables are right as they are, instead of
    /// rebuilding each node around a resolved copy), rather than -1; and whether a call of a
    /// function declared earlier in the file names it by its index among the file's functions
    /// (see ``SourceUnit/calleesArePlanned``), rather than by name.
    static func parse<Sink: DeclarationSink>(
        _ file: SourceFile, fileIndex: Int32, names: inout NameInterner, plansSlots: Bool, into _: Sink.Type
    ) -> (unit: SourceUnit, diagnostics: [Diagnostic]) {
        var text = file.text
        return text.withUTF8 { bytes in
            let (sink, all) = parse(
                Lexer(bytes: bytes, file: fileIndex), fileIndex: fileIndex, names: &names, plansSlots: plansSlots,
                into: Sink.self)
            let sorted = all.enumerated().sorted { a, b in
                let l = a.element.location
                let r = b.element.location
                if l.line != r.line { return l.line < r.line }
                if l.column != r.column { return l.column < r.column }
                return a.offset < b.offset
            }.map(\.element)
            var unit = sink.unit(file: fileIndex)
            unit.calleesArePlanned = plansSlots
            return (unit, sorted)
        }
    }

    /// What `lexer` reads, handed to a new `Sink` declaration by declaration, and the lexer's
    /// and the parser's diagnostics, in the order reported.
    static func parse<Sink: DeclarationSink>(
        _ lexer: Lexer, fileIndex: Int32, names: inout NameInterner, plansSlots: Bool, functionsBefore: Int32 = 0,
        into _: Sink.Type
    ) -> (sink: Sink, diagnostics: [Diagnostic]) {
        var parser = Parser(lexer: lexer, file: fileIndex)
        parser.plansSlots = plansSlots
        parser.functionsParsed = functionsBefore
        // Swapped in and out, not copied: a copy would share the interner's arrays, which
        // the first new name would then copy whole.
        swap(&parser.names, &names)
        var sink = Sink()
        parser.parseDeclarations(into: &sink)
        swap(&parser.names, &names)
        return (sink, parser.lexer.diagnostics + parser.diagnostics)
    }

    // MARK: Tokens

    /// Lexes far enough that the current token and three after it are in the window.
    @inline(__always)
    mutating func fill() {
        if lexer.produced <= pos + 3 { lexAhead() }
        current = window[pos]
    }

    /// Fills the window ahead of the current token, keeping the one behind it.
    ///
    /// Never inlined: it runs once in every hundred tokens or so, and inlined it would make
    /// each inlined ``advance()``, and so every parsing function, bigger and slower on the
    /// path taken at every token.
    @inline(never)
    mutating func lexAhead() {
        lexer.lex(until: pos - 1 + TokenWindow.initialCapacity, keepingFrom: pos - 1)
    }

    /// The token at absolute index `index` (at most one behind, three ahead of `pos`).
    @inline(__always)
    func token(_ index: Int) -> CompactToken {
        window[index]
    }

    /// The kind of the current token.
    @inline(__always)
    var kind: TokenKind { current.kind }

    /// The kind of the token after the current one.
    @inline(__always)
    var nextKind: TokenKind { window[pos + 1].kind }

    /// The location of a token.
    ///
    /// Take the token first (`let t = advance()`, then `location(t)`), here and in
    /// ``text(_:)``: in `location(advance())` the call's `self` is read before the argument
    /// changes it, so the whole parser is copied for the call.
    @inline(__always)
    func location(_ token: CompactToken) -> SourceLocation {
        SourceLocation(file: file, line: token.line, column: token.column)
    }

    /// The name of an identifier or the text of a string segment; empty for the others.
    func text(_ token: CompactToken) -> String {
        lexer.text(of: token)
    }

    /// The number of an identifier's name (see ``NameInterner``).
    mutating func nameID(_ token: CompactToken) -> Int32 {
        let bytes = lexer.bytes
        let start = min(max(token.value, 0), bytes.count)
        let end = min(max(start + token.count, start), bytes.count)
        return names.intern(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }

    /// The name of an identifier, made once per distinct name rather than decoded from the
    /// source at each occurrence (as ``text(_:)`` does): for the names that recur, of
    /// variables, members, keys and built-ins. (A function's or saga's name, often met only
    /// once or twice, costs less made from the source.)
    mutating func name(_ token: CompactToken) -> String {
        let id = nameID(token)
        return names.name(id)
    }

    /// A use or declaration of the variable an identifier names, at `location`.
    @inline(__always)
    mutating func variable(_ token: CompactToken, at location: SourceLocation) -> Variable {
        let id = nameID(token)
        return Variable(name: names.name(id), nameID: id, location: location)
    }

    /// How a diagnostic names a token: `'foo'` for an identifier, else its kind's spelling
    /// (`'{'`, `newline`, …).
    func describe(_ token: CompactToken) -> String {
        token.kind == .identifier ? "'\(text(token))'" : token.kind.spelling
    }

    /// The location of the current token.
    var here: SourceLocation { location(current) }

    /// Moves to the next token without consuming it as syntax (skipping separators, recovering
    /// from errors).
    ///
    /// Never moves past the EOF.
    @inline(__always)
    mutating func step() {
        if kind != .eof {
            pos += 1
            fill()
        }
    }

    /// Consumes the current token (never the EOF) and, where newlines do not count, the
    /// newlines after it.
    @discardableResult
    @inline(__always)
    mutating func advance() -> CompactToken {
        let token = current
        if token.kind != .eof {
            previous = token
            switch token.kind {
            case .leftBrace: openBrackets.push(isBrace: true, line: token.line)
            case .leftParen, .leftBracket: openBrackets.push(isBrace: false, line: token.line)
            case .rightBrace, .rightParen, .rightBracket: openBrackets.pop()
            default: break
            }
            pos += 1
            fill()
        }
        if ignoresNewlines { skipNewlines() }
        return token
    }

    @inline(__always)
    mutating func skipNewlines() {
        while kind == .newline { step() }
    }

    /// Consumes the current token if it is of `kind`.
    @inline(__always)
    mutating func match(_ kind: TokenKind) -> Bool {
        guard self.kind == kind else { return false }
        advance()
        return true
    }

    /// Consumes a token of `kind`, or reports `message` (and what was found) here.
    ///
    /// Inlined, its error out of line: a call of its own at each of the parser's many
    /// expectations, which nearly always hold, would cost more than the check.
    @discardableResult
    @inline(__always)
    mutating func expect(_ kind: TokenKind, _ message: @autoclosure () -> String) throws -> CompactToken {
        guard self.kind == kind else { throw failExpecting(message()) }
        return advance()
    }

    /// The error of an expectation that does not hold: `message`, and what was found instead.
    @inline(never)
    mutating func failExpecting(_ message: String) -> ParseError {
        fail("\(message), found \(found)\(habitHint)")
    }

    /// Consumes `kind` even when it starts the next line: `}` newline `else`.
    mutating func matchAcrossNewline(_ kind: TokenKind) -> Bool {
        if self.kind == .newline, nextKind == kind { step() }
        return match(kind)
    }

    /// Switches newline significance; returns the previous setting to restore later.
    ///
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
        kind != .newline && current.line == previous.line
    }

    /// `true` at a `key:` that begins a new line: the next entry of a record, `race` or `all`
    /// written one a line, with no comma between (a `}` left out is not taken for one).
    var startsEntryOnANewLine: Bool {
        current.line != previous.line && (kind == .identifier || kind == .string || kind.isKeyword)
            && nextKind == .colon
    }

    /// `true` when the current token is `join` directly followed by `(`: the built-in
    /// `join(list, sep)` rather than the effect `join T`.
    ///
    /// The language has both (see “Built-in functions” and “join” in Sagas/README.md); the
    /// touching parenthesis tells them apart, as it does for every built-in call.
    ///
    /// Inlined: it is asked at every right-hand side of `let`, `var` and `=`, and as a call
    /// of its own it would make the caller copy the whole parser.
    @inline(__always)
    var isJoinCall: Bool {
        guard kind == .kwJoin else { return false }
        let next = window[pos + 1]
        return next.kind == .leftParen && next.line == current.line
            && Int(next.column) == Int(current.column) + 4  // "join".utf8.count
    }

    /// `true` when the current token touches the one consumed last, with no space between:
    /// `len(x)`, `xs[0]` and `"abc"[1]` are a call and indexes, but `put ch (x)` and `put ch [1]` put
    /// a value into a channel.
    var isDirectlyAfterPrevious: Bool {
        let length: Int
        switch previous.kind {
        case .identifier, .string, .stringTail: length = previous.count
        case .rightParen, .rightBracket, .rightBrace: length = 1
        default:
            guard previous.kind.isKeyword else { return false }
            length = previous.kind.text.utf8.count
        }
        let token = current
        return token.line == previous.line && Int(token.column) == Int(previous.column) + length
    }

    /// Enters one level of nesting, failing with "nesting too deep" past ``maxDepth``.
    @inline(__always)
    mutating func enterNesting() throws {
        depth += 1
        if depth > Parser.maxDepth { throw fail(Parser.tooDeep) }
    }
}
