// String literals: escapes, `\u{…}` scalars, and interpolation, which the lexer splits into
// head / middle / tail segments around the tokens of each `\(expr)`.

extension Lexer {
    /// Scans string text from `pos` up to the closing quote or the next `\(`.
    ///
    /// - Parameters:
    ///   - first: `true` right after the opening quote, `false` right after the `)` that
    ///     closed an interpolation.
    ///   - startLine: the line where the whole string literal began (for "unterminated" errors).
    ///   - startColumn: the column where it began.
    ///   - segmentStart: the byte offset where this token starts (the quote or the `)`).
    mutating func scanStringSegment(first: Bool, startLine: Int32, startColumn: Int32, segmentStart: Int) {
        scratch.removeAll(keepingCapacity: true)
        let tokenColumn = column(at: segmentStart)
        // Plain text is taken from the source a run at a time, up to the next quote, backslash
        // or line break, rather than appended to `scratch` byte by byte (an append, with its
        // uniqueness check, per byte).
        var run = pos
        while pos < bytes.count {
            let b = bytes[pos]
            switch b {
            case UInt8(ascii: "\""):
                let end = pos
                pos += 1
                // Its width, so the parser sees an index touching it: `"abc"[1]`.
                let width = Int(column(at: pos) - tokenColumn)
                finish(first ? .string : .stringTail, column: tokenColumn, last: run..<end, width: width)
                return
            case UInt8(ascii: "\n"):
                // A raw line break ends the literal: the rest of the file stays parseable. Inside
                // an interpolation, the `\(` left open says more (`"\(a.b"` makes its quote begin
                // a string of its own): the line break reports that (``closeInterpolations()``).
                if interpolations.isEmpty || !first {
                    error("unterminated string literal", line: startLine, column: startColumn)
                }
                finish(first ? .string : .stringTail, column: tokenColumn, last: run..<pos)
                // Whatever the literal swallowed is lost: an error token makes the parser
                // give up on the statement without a second message.
                emit(.error, at: pos)
                return
            case UInt8(ascii: "\\"):
                if peek(1) == UInt8(ascii: "(") {
                    let end = pos
                    pos += 2
                    finish(first ? .stringHead : .stringMiddle, column: tokenColumn, last: run..<end)
                    interpolations.append(
                        OpenInterpolation(
                            parenDepth: 0, line: startLine, column: startColumn, openLine: line,
                            openColumn: column(at: end)))
                    return
                }
                scratch.append(contentsOf: bytes[run..<pos])
                scanEscape()
                run = pos
            default:
                if b & 0xC0 == 0x80 { continuationBytes += 1 }
                pos += 1
            }
        }
        // The end of the file, as a line break above.
        if interpolations.isEmpty || !first {
            error("unterminated string literal", line: startLine, column: startColumn)
        }
        finish(first ? .string : .stringTail, column: tokenColumn, last: run..<pos)
        emit(.error, at: pos)
    }

    /// Emits the segment: what `scratch` holds, then the plain text `last` of the source.
    ///
    /// `width` is the segment's length in columns when it ends at its closing quote, and 0
    /// otherwise.
    private mutating func finish(_ kind: TokenKind, column: Int32, last: Range<Int>, width: Int = 0) {
        let text: String
        if scratch.isEmpty {
            // Nothing before the last run (no escape, or only escapes that gave nothing): the
            // text is made straight from the source, with no copy into `scratch`.
            text = String(decoding: UnsafeBufferPointer(rebasing: bytes[last]), as: UTF8.self)
        } else {
            scratch.append(contentsOf: bytes[last])
            text = String(decoding: scratch, as: UTF8.self)
        }
        emitText(kind, line: line, column: column, text, width: width)
    }

    /// One escape sequence at `pos` (a backslash), appended to `scratch` when valid.
    private mutating func scanEscape() {
        let escapeColumn = column(at: pos)
        let next = peek(1)
        switch next {
        case UInt8(ascii: "n"): scratch.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): scratch.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "r"): scratch.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "u"):
            pos += 2
            scanUnicodeEscape(column: escapeColumn)
            return
        case UInt8(ascii: "\n"), 0:
            // Leave the line break (or the end) to the caller: it ends the literal.
            error("invalid escape sequence at end of line", line: line, column: escapeColumn)
            pos += 1
            return
        default:
            pos += 1
            let shown = decodeScalar().map { String(Character($0)) } ?? "?"
            error("invalid escape sequence '\\\(shown)' in string literal", line: line, column: escapeColumn)
            return
        }
        pos += 2
    }

    /// `\u{1F600}`: `pos` is just after the `u`.
    private mutating func scanUnicodeEscape(column escapeColumn: Int32) {
        guard peek() == UInt8(ascii: "{") else {
            error("expected '{' after '\\u' in string literal", line: line, column: escapeColumn)
            return
        }
        pos += 1
        var value: UInt32 = 0
        var digits = 0
        while pos < bytes.count, let digit = Lexer.hexValue(bytes[pos]) {
            if digits < 9 { value = value &* 16 &+ UInt32(digit) }
            digits += 1
            pos += 1
        }
        guard peek() == UInt8(ascii: "}") else {
            error("expected '}' to end '\\u{…}' escape", line: line, column: escapeColumn)
            return
        }
        pos += 1
        guard digits >= 1, digits <= 8, let scalar = Unicode.Scalar(value) else {
            error("invalid unicode scalar in '\\u{…}' escape", line: line, column: escapeColumn)
            return
        }
        UTF8.encode(scalar) { scratch.append($0) }
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
