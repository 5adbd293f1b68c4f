// Splits a source file into the lexer's tokens, each with its exact text, and the trivia
// (comments, line breaks) that the lexer skips, so the formatter can print both back.

import SagaCore

/// Finds the source text of each token and the trivia between tokens.
///
/// The real ``Lexer`` decides what the tokens are, so the formatter sees exactly what the
/// parser sees; this scanner only walks the bytes between them. It checks that every token
/// starts where the lexer said (line and column) and gives up otherwise.
struct TokenScanner {
    let bytes: [UInt8]
    var pos = 0
    var line: Int32 = 1
    var column: Int32 = 1

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    /// The tokens of `source` and the trivia after the last one, or `nil` if the scanner
    /// lost track of the lexer (which would be a bug; the caller leaves the file alone).
    static func scan(_ source: String) -> (tokens: [FormatToken], trailing: [FormatToken.Trivia])? {
        let (lexed, diagnostics) = Lexer.tokenize(SourceFile(path: "", text: source), fileIndex: 0)
        guard diagnostics.isEmpty else { return nil }
        var scanner = TokenScanner(source)
        var tokens: [FormatToken] = []
        tokens.reserveCapacity(lexed.count)
        var previousEnd = -1
        for token in lexed {
            switch token.kind {
            case .newline:
                continue
            case .error:
                return nil
            case .eof:
                let trailing = scanner.scanTrivia()
                guard scanner.pos == scanner.bytes.count else { return nil }
                return (tokens, trailing)
            default:
                let leading = scanner.scanTrivia()
                guard scanner.line == token.line, scanner.column == token.column else { return nil }
                let start = scanner.pos
                guard let end = scanner.tokenEnd(token) else { return nil }
                scanner.advance(to: end)
                tokens.append(
                    FormatToken(
                        kind: token.kind,
                        text: String(decoding: scanner.bytes[start..<end], as: UTF8.self),
                        line: token.line, column: token.column,
                        touchesPrevious: start == previousEnd, leading: leading))
                previousEnd = end
            }
        }
        return nil
    }

    /// Moves to byte offset `end` on the current line, counting columns in scalars.
    mutating func advance(to end: Int) {
        while pos < end {
            if bytes[pos] & 0xC0 != 0x80 { column += 1 }
            pos += 1
        }
    }

    mutating func newline() {
        pos += 1
        line += 1
        column = 1
    }

    func peek(_ ahead: Int) -> UInt8 {
        pos + ahead < bytes.count ? bytes[pos + ahead] : 0
    }

    /// White space, line breaks and comments from `pos` up to the next token.
    mutating func scanTrivia() -> [FormatToken.Trivia] {
        var trivia: [FormatToken.Trivia] = []
        var newlines = 0
        func flush() {
            if newlines > 0 { trivia.append(.newlines(newlines)) }
            newlines = 0
        }
        while pos < bytes.count {
            switch bytes[pos] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                advance(to: pos + 1)
            case UInt8(ascii: "\n"):
                newlines += 1
                newline()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                flush()
                let start = pos
                var end = pos
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                advance(to: end)
                trivia.append(.comment(text(start, end), isLine: true))
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                flush()
                let start = pos
                scanBlockComment()
                trivia.append(.comment(text(start, pos), isLine: false))
            default:
                flush()
                return trivia
            }
        }
        flush()
        return trivia
    }

    /// `/* … */`, nesting as the lexer does; `pos` ends after the last `*/`.
    mutating func scanBlockComment() {
        var depth = 0
        while pos < bytes.count {
            if bytes[pos] == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                depth += 1
                advance(to: pos + 2)
            } else if bytes[pos] == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                depth -= 1
                advance(to: pos + 2)
                if depth == 0 { return }
            } else if bytes[pos] == UInt8(ascii: "\n") {
                newline()
            } else {
                advance(to: pos + 1)
            }
        }
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Where the token that starts at `pos` ends, or `nil` if it does not look like `token`.
    func tokenEnd(_ token: Token) -> Int? {
        switch token.kind {
        case .identifier:
            let end = pos + token.text.utf8.count
            return end <= bytes.count ? end : nil
        case .number:
            return numberEnd()
        case .string, .stringHead:
            guard bytes[pos] == UInt8(ascii: "\"") else { return nil }
            return stringSegmentEnd(from: pos + 1, kind: token.kind, closing: .string, opening: .stringHead)
        case .stringMiddle, .stringTail:
            guard bytes[pos] == UInt8(ascii: ")") else { return nil }
            return stringSegmentEnd(from: pos + 1, kind: token.kind, closing: .stringTail, opening: .stringMiddle)
        default:
            let spelled = Array(token.kind.text.utf8)
            guard !spelled.isEmpty, pos + spelled.count <= bytes.count,
                bytes[pos..<pos + spelled.count].elementsEqual(spelled)
            else { return nil }
            return pos + spelled.count
        }
    }

    /// A number as ``Lexer/scanNumber()`` reads it: digits and `_`, an optional fraction and
    /// exponent, then an optional suffix (`ms`, `s`, `m`, `h`).
    func numberEnd() -> Int {
        var i = pos
        func at(_ j: Int) -> UInt8 { j < bytes.count ? bytes[j] : 0 }
        func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        while isDigit(at(i)) || at(i) == UInt8(ascii: "_") { i += 1 }
        if at(i) == UInt8(ascii: "."), isDigit(at(i + 1)) {
            i += 1
            while isDigit(at(i)) || at(i) == UInt8(ascii: "_") { i += 1 }
        }
        if at(i) == UInt8(ascii: "e") || at(i) == UInt8(ascii: "E") {
            let signed = at(i + 1) == UInt8(ascii: "+") || at(i + 1) == UInt8(ascii: "-")
            if isDigit(at(i + (signed ? 2 : 1))) {
                i += signed ? 2 : 1
                while isDigit(at(i)) || at(i) == UInt8(ascii: "_") { i += 1 }
            }
        }
        while i < bytes.count, Lexer.isIdentifierByte(bytes[i]) { i += 1 }
        return i
    }

    /// The end of string text starting at `from`: after the closing quote (`closing`) or
    /// after a `\(` (`opening`); `nil` if that does not match `kind` or the line ends first.
    func stringSegmentEnd(from: Int, kind: TokenKind, closing: TokenKind, opening: TokenKind) -> Int? {
        var i = from
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                return kind == closing ? i + 1 : nil
            case UInt8(ascii: "\n"):
                return nil
            case UInt8(ascii: "\\"):
                if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "(") {
                    return kind == opening ? i + 2 : nil
                }
                i += 2
            default:
                i += 1
            }
        }
        return nil
    }
}
