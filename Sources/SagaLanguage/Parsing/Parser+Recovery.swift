// Error reporting and panic-mode recovery: after an error the parser skips to a place
// where parsing can safely resume, so each mistake is reported once.

import SagaCore

extension Parser {
    /// Records `message` at the current token (or `location`) and returns the error to throw.
    ///
    /// Nothing is recorded at an error token (the lexer already reported it) or where the
    /// last diagnostic already points, so one mistake never gives two messages.
    mutating func fail(_ message: String, at location: SourceLocation? = nil) -> ParseError {
        if location == nil, tokens[pos].kind == .error { return ParseError() }
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
        guard previousIndex >= 0 else { return "at start of file" }
        return "after \(tokens[previousIndex].description)"
    }

    /// What the current token is, for "…, found X" messages.
    var found: String { current.description }

    /// `true` for `saga`, `func`, `reduce`, `import`, and `state {`: a token that can only
    /// start a declaration, where a block that was never closed must end.
    var isAtDeclarationKeyword: Bool {
        switch kind {
        case .kwSaga, .kwFunc, .kwReduce, .kwImport: return true
        case .kwState: return nextKind == .leftBrace
        default: return false
        }
    }

    /// Skips to the end of the broken statement that began at token `start`: the next
    /// newline or `;` outside brackets, or the `}` that closes the enclosing block (left for
    /// the block to consume), or a declaration keyword at the start of a line.
    ///
    /// Brackets that the error unwound (an expression's, a `race`'s) still need their
    /// closers skipped; but one opened on an earlier line than the error was most likely
    /// never closed (`put "a" {x: 1` + newline), and its `}` would be the block's.
    mutating func synchronizeStatement(from start: Int) {
        let errorIndex = pos
        var braces = 0
        var brackets = 0
        var open: [(isBrace: Bool, line: Int32)] = []
        for i in start..<errorIndex {
            switch tokens[i].kind {
            case .leftBrace: open.append((true, tokens[i].line))
            case .leftParen, .leftBracket: open.append((false, tokens[i].line))
            case .rightBrace, .rightParen, .rightBracket: if !open.isEmpty { open.removeLast() }
            default: break
            }
        }
        // After a lexical error the rest of the line is unreliable: close nothing.
        let errorLine = tokens[errorIndex].kind == .error ? -1 : tokens[errorIndex].line
        for bracket in open where bracket.line == errorLine {
            if bracket.isBrace { braces += 1 } else { brackets += 1 }
        }
        while true {
            switch tokens[pos].kind {
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
            case .kwSaga, .kwFunc, .kwReduce, .kwImport, .kwState:
                if pos > start, isAtLineStart, isAtDeclarationKeyword { return }
            default:
                break
            }
            pos += 1
        }
    }

    /// Skips to the next declaration keyword at the start of a line.
    mutating func synchronizeDeclaration(startedAt start: Int) {
        pos = max(pos, start + 1)
        while kind != .eof {
            if isAtLineStart, isAtDeclarationKeyword { return }
            pos += 1
        }
    }

    /// `true` when the current token is the first of its line.
    var isAtLineStart: Bool {
        pos == 0 || tokens[pos - 1].kind == .newline
    }
}
