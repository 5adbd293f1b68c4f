// Error reporting and panic-mode recovery: after an error the parser skips to a place
// where parsing can safely resume, so each mistake is reported once.

import SagaCore

extension Parser {
    /// Records `message` at the current token (or `location`) and returns the error to throw.
    ///
    /// Nothing is recorded at an error token (the lexer already reported it) or where the
    /// last diagnostic already points, so one mistake never gives two messages.
    mutating func fail(_ message: String, at location: SourceLocation? = nil) -> ParseError {
        if location == nil, kind == .error || followsLexicalError { return ParseError() }
        report(message, at: location ?? here)
        return ParseError()
    }

    /// Records an error diagnostic unless one already points at the same place.
    mutating func report(_ message: String, at location: SourceLocation) {
        if let last = diagnostics.last, last.location == location { return }
        diagnostics.append(.error(message, at: location))
    }

    /// "expected expression after '='": names the token consumed last.
    var afterPrevious: String {
        "after \(describe(previous))"
    }

    /// What the current token is, for "…, found X" messages.
    var found: String { describe(current) }

    /// What to write instead of a JavaScript habit that starts at the current token (`=>`,
    /// `===`, `...`), for an error found there: `""` when there is none.
    var habitHint: String {
        switch kind {
        case .assign where nextKind == .greater:
            return "; there are no arrow functions: a binding's block follows it ('as a { … }'), "
                + "and a function is a 'func'"
        case .assign where previous.kind == .equal:
            return "; '===' is written '=='"
        case .assign where previous.kind == .notEqual:
            return "; '!==' is written '!='"
        case .plus where previous.kind == .plus && touchesPrevious,
            .minus where previous.kind == .minus && touchesPrevious:
            let op = previous.kind == .plus ? "+" : "-"
            return "; there is no '\(op)\(op)': write 'x = x \(op) 1'"
        case .assign where [.plus, .minus, .star, .slash, .percent].contains(previous.kind) && touchesPrevious:
            let op = previous.kind.text
            return "; there is no '\(op)=': write 'x = x \(op) …'"
        case .dot where nextKind == .dot:
            return "; there is no spread ('...'): 'r + { k: v }' is r with k set (the right side's keys win), "
                + "and 'xs + ys' joins two lists"
        default:
            return ""
        }
    }

    /// Whether the current token follows a one-character token with no space between them
    /// (`++`, `+=`).
    private var touchesPrevious: Bool {
        Self.touches(previous, current)
    }

    /// Whether `b` follows `a`, a one-character token, with no space between them (`++`,
    /// `*=`).
    static func touches(_ a: CompactToken, _ b: CompactToken) -> Bool {
        a.line == b.line && b.column == a.column + 1
    }

    /// `true` for `saga`, `func`, `reduce`, `import`, and `state {`: a token that can only
    /// start a declaration, where a block that was never closed must end.
    var isAtDeclarationKeyword: Bool {
        switch kind {
        case .kwSaga, .kwFunc, .kwReduce, .kwImport, .kwExtern: return true
        case .kwState: return nextKind == .leftBrace
        default: return false
        }
    }

    /// Skips to the end of the broken statement: the next newline or `;` outside brackets,
    /// or the `}` that closes the enclosing block (left for the block to consume), or a
    /// declaration keyword at the start of a line.
    ///
    /// Brackets that the error unwound (an expression's, a `race`'s) still need their
    /// closers skipped; but one opened on an earlier line than the error was most likely
    /// never closed (`put "a" {x: 1` + newline), and its `}` would be the block's.
    ///
    /// - Parameter height: how many brackets were open when the statement began.
    mutating func synchronizeStatement(openBefore height: Int) {
        // After a lexical error the rest of the line is unreliable: close nothing.
        let errorLine = kind == .error || followsLexicalError ? -1 : current.line
        var (braces, brackets) = openBrackets.open(above: height, onLine: errorLine)
        openBrackets.truncate(to: height)
        var first = true
        while true {
            switch kind {
            case .eof:
                return
            case .newline, .semicolon:
                if braces == 0, brackets == 0 { return }
            case .leftBrace:
                braces += 1
            case .rightBrace:
                if braces == 0 { return }
                braces -= 1
            case .leftParen, .leftBracket:
                brackets += 1
            case .rightParen, .rightBracket:
                brackets = max(0, brackets - 1)
            case .kwSaga, .kwFunc, .kwReduce, .kwImport, .kwState, .kwExtern:
                if !first, isAtLineStart, isAtDeclarationKeyword { return }
            default:
                break
            }
            first = false
            step()
        }
    }

    /// Skips to the next declaration keyword at the start of a line.
    mutating func synchronizeDeclaration(startedAt start: Int) {
        openBrackets.truncate(to: 0)
        if pos == start { step() }
        while kind != .eof {
            if isAtLineStart, isAtDeclarationKeyword { return }
            step()
        }
    }

    /// `true` when the lexer reported an error earlier on the current token's line (an
    /// unterminated string, say): whatever goes wrong after it is the same mistake. (The
    /// lexer's last error as of the token three ahead, whatever it has lexed since: the
    /// parser once asked for tokens that far ahead only, and its messages keep that rule.)
    var followsLexicalError: Bool {
        guard let last = lexer.lastDiagnostic(before: pos + 4)?.location else { return false }
        let token = current
        return last.line == token.line && last.column <= token.column
    }

    /// `true` when the current token is the first of its line.
    var isAtLineStart: Bool {
        pos == 0 || token(pos - 1).kind == .newline
    }
}
