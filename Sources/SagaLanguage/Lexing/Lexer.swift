import SagaCore

/// Turns the UTF-8 bytes of a source file into tokens, in one pass with no backtracking.
///
/// Hand-written in the style of Crafting Interpreters: a loop over bytes, a switch on the
/// first byte of each token. It never stops at an error: it records a diagnostic, emits an
/// ``TokenKind/error`` token where a token was expected (so the parser does not report the
/// same mistake twice) and goes on.
///
/// Newlines are always emitted (one NEWLINE token for a run of blank lines and comments,
/// never two in a row); the parser decides where they are insignificant (inside brackets,
/// records, after an operator or a comma), because only it knows whether a `{` opens a
/// record or a block.
///
/// Tokens are produced on demand, many at a time, into a ring the parser reads
/// (``lex(until:keepingFrom:)``, ``TokenWindow``), so a large file never holds its whole
/// token stream in memory.
struct Lexer {
    /// An interpolation `\(` that is still open: how many `(` it has inside, and where its
    /// string started (for the "unterminated" diagnostic).
    struct OpenInterpolation {
        var parenDepth: Int
        /// Where its string literal began.
        var line: Int32
        var column: Int32
        /// Where its `\(` stands.
        var openLine: Int32
        var openColumn: Int32
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let file: Int32
    var pos = 0
    var line: Int32 = 1
    /// Byte offset where the current line starts.
    var lineStart = 0
    /// UTF-8 continuation bytes seen on the current line, so columns count scalars.
    var continuationBytes = 0
    /// The tokens produced, by absolute index; those from ``keepFrom`` on are kept.
    let tokens = TokenWindow(filledWith: CompactToken(kind: .newline, line: 0, column: 0))
    /// How many tokens have been produced.
    var produced = 0
    /// The first token the reader still needs: a token that would overwrite it grows the ring.
    var keepFrom = 0
    /// Scanning stops once this many tokens have been produced.
    var target = 0
    /// How many tokens had been produced when the current scan step began: a step ends with
    /// the first token it produces, and the diagnostics it reports are dated by it (see
    /// ``lastDiagnostic(before:)``).
    var stepStart = 0
    /// ``stepStart`` of the step that reported each of ``diagnostics``.
    var diagnosticSteps: [Int] = []
    /// How many tokens ``next()`` has handed out.
    var handedOut = 0
    /// The decoded text of every string segment scanned, which its token refers to by index.
    /// (Identifiers need no entry: their text is in ``bytes``.)
    var strings: [String] = []
    /// The kind of the last token produced, to collapse runs of newlines.
    var lastKind: TokenKind?
    /// Set once the EOF token has been produced.
    var finished = false
    var diagnostics: [Diagnostic] = []
    var interpolations: [OpenInterpolation] = []
    /// Scratch space for the decoded text of a string segment.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, file: Int32) {
        self.bytes = bytes
        self.file = file
    }

    /// A lexer of `bytes` from the start of a line in the middle, `offset`, which is line
    /// `line` of the file: a piece of a file parsed on its own (Parser+Pieces.swift).
    ///
    /// Offsets and locations are the whole file's; the piece ends where `bytes` does.
    init(bytes: UnsafeBufferPointer<UInt8>, file: Int32, from offset: Int, line: Int32) {
        self.init(bytes: bytes, file: file)
        pos = offset
        lineStart = offset
        self.line = line
    }

    @inline(__always)
    mutating func push(_ token: CompactToken) {
        if produced - keepFrom >= tokens.capacity { tokens.grow(keeping: keepFrom..<produced) }
        tokens[produced] = token
        produced += 1
        lastKind = token.kind
    }

    /// The 1-based column of byte offset `offset` on the current line.
    @inline(__always)
    func column(at offset: Int) -> Int32 {
        Int32(truncatingIfNeeded: offset - lineStart - continuationBytes + 1)
    }

    mutating func error(_ message: String, line: Int32, column: Int32) {
        diagnostics.append(.error(message, at: SourceLocation(file: file, line: line, column: column)))
        diagnosticSteps.append(stepStart)
    }

    @inline(__always)
    mutating func emit(_ kind: TokenKind, at offset: Int) {
        push(CompactToken(kind: kind, line: line, column: column(at: offset)))
    }

    /// A string segment's token, its text kept in ``strings``.
    mutating func emitText(_ kind: TokenKind, line: Int32, column: Int32, _ text: String, width: Int = 0) {
        var token = CompactToken(kind: kind, line: line, column: column)
        token.count = width
        token.value = strings.count
        strings.append(text)
        push(token)
    }

    /// Consumes the `\n` at `pos` and starts a new line.
    @inline(__always)
    mutating func newline() {
        emitNewline(at: pos)
        pos += 1
        line += 1
        lineStart = pos
        continuationBytes = 0
    }

    /// A NEWLINE token, unless the previous token already is one (or there is none yet).
    mutating func emitNewline(at offset: Int) {
        if let lastKind, lastKind != .newline {
            emit(.newline, at: offset)
        }
    }

    @inline(__always)
    func peek(_ ahead: Int = 0) -> UInt8 {
        let i = pos + ahead
        return i < bytes.count ? bytes[i] : 0
    }

    /// Scans until ``target`` tokens have been produced, or to the end of the file.
    mutating func scan() {
        while pos < bytes.count {
            stepStart = produced
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                pos += 1
                continue
            case UInt8(ascii: "\n"):
                if !interpolations.isEmpty { closeInterpolations() }
                newline()
            case UInt8(ascii: "/"):
                if peek(1) == UInt8(ascii: "/") {
                    skipLineComment()
                } else if peek(1) == UInt8(ascii: "*") {
                    skipBlockComment()
                } else {
                    single(.slash)
                }
            case UInt8(ascii: "\""):
                let start = pos
                let col = column(at: start)
                pos += 1
                scanStringSegment(first: true, startLine: line, startColumn: col, segmentStart: start)
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                scanNumber()
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
                scanIdentifier()
            default:
                scanPunctuation(b)
            }
            if produced >= target { return }
        }
        stepStart = produced
        closeInterpolations()
        emitNewline(at: pos)
        emit(.eof, at: pos)
        finished = true
    }

    /// A line break or the end of the file inside `\(…)`: the string literal never ended.
    ///
    /// Reported once; an error token (which the parser does not report again) and a tail close
    /// each open interpolation, so the next line parses normally.
    mutating func closeInterpolations() {
        for (i, open) in interpolations.enumerated().reversed() {
            if i == 0 {
                // The innermost `\(` left open is the likelier mistake: `"\(a.b"`.
                let last = interpolations[interpolations.count - 1]
                error(
                    "unterminated string literal: the '\\(' at \(last.openLine):\(last.openColumn) has no ')'",
                    line: open.line, column: open.column)
            }
            emit(.error, at: pos)
            emitText(.stringTail, line: line, column: column(at: pos), "")
        }
        interpolations.removeAll()
    }

    @inline(__always)
    mutating func single(_ kind: TokenKind) {
        emit(kind, at: pos)
        pos += 1
    }

    @inline(__always)
    mutating func pair(_ second: UInt8, _ two: TokenKind, else one: TokenKind) {
        if peek(1) == second {
            emit(two, at: pos)
            pos += 2
        } else {
            single(one)
        }
    }

    mutating func scanPunctuation(_ b: UInt8) {
        switch b {
        case UInt8(ascii: "("):
            if !interpolations.isEmpty { interpolations[interpolations.count - 1].parenDepth += 1 }
            single(.leftParen)
        case UInt8(ascii: ")"):
            if let open = interpolations.last {
                if open.parenDepth == 0 {
                    // The `)` closes `\(`: the string goes on.
                    interpolations.removeLast()
                    let start = pos
                    pos += 1
                    scanStringSegment(first: false, startLine: open.line, startColumn: open.column, segmentStart: start)
                    return
                }
                interpolations[interpolations.count - 1].parenDepth -= 1
            }
            single(.rightParen)
        case UInt8(ascii: "["): single(.leftBracket)
        case UInt8(ascii: "]"): single(.rightBracket)
        case UInt8(ascii: "{"): single(.leftBrace)
        case UInt8(ascii: "}"): single(.rightBrace)
        case UInt8(ascii: ","): single(.comma)
        case UInt8(ascii: ":"): single(.colon)
        case UInt8(ascii: ";"): single(.semicolon)
        case UInt8(ascii: "."): single(.dot)
        case UInt8(ascii: "+"): single(.plus)
        case UInt8(ascii: "-"): single(.minus)
        case UInt8(ascii: "*"): single(.star)
        case UInt8(ascii: "%"): single(.percent)
        case UInt8(ascii: "="): pair(UInt8(ascii: "="), .equal, else: .assign)
        case UInt8(ascii: "!"): pair(UInt8(ascii: "="), .notEqual, else: .not)
        case UInt8(ascii: "<"): pair(UInt8(ascii: "="), .lessEqual, else: .less)
        case UInt8(ascii: ">"): pair(UInt8(ascii: "="), .greaterEqual, else: .greater)
        case UInt8(ascii: "&"): doubled(b, .and, "did you mean '&&'?")
        case UInt8(ascii: "|"): doubled(b, .or, "did you mean '||'?")
        case UInt8(ascii: "?"):
            // `x?.y`: access on null gives null, so `x.y` is what JavaScript's `?.` does.
            let chained = peek(1) == UInt8(ascii: ".")
            doubled(
                b, .coalesce,
                chained ? "there is no '?.': access on null gives null, so write 'x.y'" : "did you mean '??'?")
        case UInt8(ascii: "'"): singleQuoted()
        case UInt8(ascii: "`"): templateLiteral()
        default:
            strayCharacter()
        }
    }

    /// `'text'`, as JavaScript writes a string: one error that shows it in double quotes,
    /// and an error token for the whole of it (to the closing quote on the line, if any).
    mutating func singleQuoted() {
        javaScriptString(closedBy: UInt8(ascii: "'"), "strings are written in double quotes") { $0 }
    }

    /// `` `text ${x}` ``, JavaScript's template literal: as ``singleQuoted()``, shown as a
    /// string with `\(…)`.
    mutating func templateLiteral() {
        javaScriptString(
            closedBy: UInt8(ascii: "`"), "strings are written in double quotes, with \\(…) for values",
            Self.interpolating)
    }

    /// A string in JavaScript's `quote`s: one error with `advice`, and the text as `shown`
    /// would write it in double quotes when the quote closes on the line; an error token for
    /// the whole of it.
    private mutating func javaScriptString(closedBy quote: UInt8, _ advice: String, _ shown: (String) -> String) {
        let start = pos
        let col = column(at: start)
        var end = pos + 1
        while end < bytes.count, bytes[end] != quote, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        var message = "unexpected character '\(Character(UnicodeScalar(quote)))'; \(advice)"
        if end < bytes.count, bytes[end] == quote {
            message += ": \"\(shown(String(decoding: bytes[(start + 1)..<end], as: UTF8.self)))\""
            pos = end + 1
        } else {
            pos += 1
        }
        error(message, line: line, column: col)
        push(CompactToken(kind: .error, line: line, column: col))
    }

    /// A template literal's text with each `${x}` written `\(x)`.
    private static func interpolating(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                out += rest[open.lowerBound...]
                return out
            }
            out += "\\(" + after[..<close] + ")"
            rest = after[after.index(after: close)...]
        }
        return out + rest
    }

    /// `&&`, `||`, `??`: the single character is an error with a hint.
    mutating func doubled(_ b: UInt8, _ kind: TokenKind, _ hint: String) {
        if peek(1) == b {
            emit(kind, at: pos)
            pos += 2
        } else {
            let char = String(UnicodeScalar(b))
            error("unexpected character '\(char)'; \(hint)", line: line, column: column(at: pos))
            single(.error)
        }
    }

    /// A character that starts no token: reported once, emitted as an error token.
    mutating func strayCharacter() {
        let start = pos
        let col = column(at: start)
        let scalar = decodeScalar()
        let shown: String
        if let scalar, scalar.value >= 0x20, scalar.value != 0x7F {
            shown = "'\(Character(scalar))'"
        } else if let scalar {
            shown = "U+\(String(scalar.value, radix: 16, uppercase: true))"
        } else {
            shown = "(invalid UTF-8)"
        }
        // A letter outside ASCII (`café`, `größe`): names are ASCII, and saying so saves a guess.
        let inName = scalar.map { $0.value > 0x7F && $0.properties.isAlphabetic } ?? false
        let hint = inName ? "; names are written with ASCII letters, digits and '_'" : ""
        error("unexpected character \(shown)\(hint)", line: line, column: col)
        push(CompactToken(kind: .error, line: line, column: col))
    }

    /// Decodes one scalar at `pos` and moves past it, keeping the column count right;
    /// `nil` (after skipping one byte) for invalid UTF-8.
    mutating func decodeScalar() -> Unicode.Scalar? {
        let b0 = bytes[pos]
        if b0 < 0x80 {
            pos += 1
            return Unicode.Scalar(b0)
        }
        let length: Int
        var value: UInt32
        switch b0 {
        case 0xC2...0xDF:
            length = 2
            value = UInt32(b0 & 0x1F)
        case 0xE0...0xEF:
            length = 3
            value = UInt32(b0 & 0x0F)
        case 0xF0...0xF4:
            length = 4
            value = UInt32(b0 & 0x07)
        default:
            pos += 1
            return nil
        }
        guard pos + length <= bytes.count else {
            pos += 1
            return nil
        }
        for i in 1..<length {
            let c = bytes[pos + i]
            guard c & 0xC0 == 0x80 else {
                pos += 1
                return nil
            }
            value = value << 6 | UInt32(c & 0x3F)
        }
        pos += length
        continuationBytes += length - 1
        return Unicode.Scalar(value)
    }

    mutating func scanIdentifier() {
        let start = pos
        pos += 1
        while pos < bytes.count, Lexer.isIdentifierByte(bytes[pos]) { pos += 1 }
        // No keyword has one letter or ends with a digit (`f1`, `x`): no need to look.
        let mayBeKeyword = pos - start > 1 && !Lexer.isDigit(bytes[pos - 1])
        if mayBeKeyword, let keyword = TokenKind.keyword(in: bytes, start: start, count: pos - start) {
            emit(keyword, at: start)
        } else {
            // The name stays in the source bytes until the parser needs it as a String.
            var token = CompactToken(kind: .identifier, line: line, column: column(at: start))
            token.value = start
            token.count = pos - start
            push(token)
        }
    }

    @inline(__always)
    static func isIdentifierByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// `// …` up to (not including) the line break.
    mutating func skipLineComment() {
        pos += 2
        while pos < bytes.count, bytes[pos] != UInt8(ascii: "\n") {
            if bytes[pos] & 0xC0 == 0x80 { continuationBytes += 1 }
            pos += 1
        }
    }

    /// `/* … */`, nesting; one that spans lines ends a statement as a line break would.
    mutating func skipBlockComment() {
        let startLine = line
        let startColumn = column(at: pos)
        var sawNewline = false
        var depth = 0
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                pos += 2
            } else if b == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                pos += 2
                if depth == 0 { break }
            } else if b == UInt8(ascii: "\n") {
                sawNewline = true
                pos += 1
                line += 1
                lineStart = pos
                continuationBytes = 0
            } else {
                if b & 0xC0 == 0x80 { continuationBytes += 1 }
                pos += 1
            }
        }
        if depth > 0 {
            error("unterminated block comment", line: startLine, column: startColumn)
        }
        if sawNewline, let lastKind, lastKind != .newline {
            push(CompactToken(kind: .newline, line: startLine, column: startColumn))
        }
    }
}
