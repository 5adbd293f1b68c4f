// Number and duration literals: `42`, `1_000`, `2.5`, `1e3`, `1.5e-3`, `100ms`, `1.5s`.
// Durations are computed exactly in decimal, so `1.1s` is 1100 and `1.0005s` is an error.

import SagaCore

extension Lexer {
    mutating func scanNumber() {
        let start = pos
        let startColumn = column(at: start)
        // Fast path: a plain integer such as `42`, with no allocation.
        var fast = 0
        var overflow = false
        while pos < bytes.count, Lexer.isDigit(bytes[pos]) {
            let (times, o1) = fast.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(bytes[pos] &- UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            fast = plus
            pos += 1
        }
        let after = peek()
        if !overflow, !Lexer.isIdentifierByte(after), !(after == UInt8(ascii: ".") && Lexer.isDigit(peek(1))) {
            push(CompactToken(kind: .number, line: line, column: startColumn, number: .int(fast)))
            return
        }
        pos = start
        // The digits without separators, and where the decimal point was.
        var digits: [UInt8] = []
        var fractionDigits = 0
        var isDecimal = false
        scanDigits(into: &digits)
        if peek() == UInt8(ascii: "."), Lexer.isDigit(peek(1)) {
            isDecimal = true
            pos += 1
            let before = digits.count
            scanDigits(into: &digits)
            fractionDigits = digits.count - before
        }
        var exponent = 0
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            let sign = peek(1)
            let signed = sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-")
            if Lexer.isDigit(peek(signed ? 2 : 1)) {
                isDecimal = true
                pos += signed ? 2 : 1
                while pos < bytes.count, Lexer.isDigit(bytes[pos]) || bytes[pos] == UInt8(ascii: "_") {
                    if bytes[pos] != UInt8(ascii: "_"), exponent < 100_000 {
                        exponent = exponent * 10 + Int(bytes[pos] - UInt8(ascii: "0"))
                    }
                    pos += 1
                }
                if sign == UInt8(ascii: "-") { exponent = -exponent }
            }
        }
        let value: Value
        if pos < bytes.count, Lexer.isIdentifierByte(bytes[pos]) {
            let suffixStart = pos
            while pos < bytes.count, Lexer.isIdentifierByte(bytes[pos]) { pos += 1 }
            let suffix = String(decoding: UnsafeBufferPointer(rebasing: bytes[suffixStart..<pos]), as: UTF8.self)
            let factor: Int
            switch suffix {
            case "ms": factor = 1
            case "s": factor = 1_000
            case "m": factor = 60_000
            case "h": factor = 3_600_000
            default:
                error(
                    "invalid suffix '\(suffix)' on number literal (durations use ms, s, m or h)",
                    line: line, column: column(at: suffixStart))
                emit(.number, at: start)
                return
            }
            value = duration(digits: digits, exponent: exponent - fractionDigits, factor: factor, start: start)
        } else if isDecimal {
            value = decimal(start: start)
        } else {
            value = integer(digits: digits, start: start)
        }
        push(CompactToken(kind: .number, line: line, column: startColumn, number: value))
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    /// Digits and `_` separators; only the digits are kept.
    private mutating func scanDigits(into digits: inout [UInt8]) {
        while pos < bytes.count {
            let b = bytes[pos]
            if Lexer.isDigit(b) {
                digits.append(b - UInt8(ascii: "0"))
            } else if b != UInt8(ascii: "_") {
                break
            }
            pos += 1
        }
    }

    private func literalText(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
    }

    private mutating func integer(digits: [UInt8], start: Int) -> Value {
        var result = 0
        for d in digits {
            let (times, o1) = result.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(d))
            if o1 || o2 {
                error(
                    "integer literal '\(literalText(from: start))' overflows a 64-bit integer",
                    line: line, column: column(at: start))
                return .int(0)
            }
            result = plus
        }
        return .int(result)
    }

    private mutating func decimal(start: Int) -> Value {
        var text = ""
        for b in UnsafeBufferPointer(rebasing: bytes[start..<pos]) where b != UInt8(ascii: "_") {
            text.unicodeScalars.append(Unicode.Scalar(b))
        }
        guard let d = Double(text), d.isFinite else {
            error("number literal '\(literalText(from: start))' is out of range", line: line, column: column(at: start))
            return .int(0)
        }
        return .double(d)
    }

    /// `digits × 10^exponent × factor`, which must be a whole number of milliseconds.
    private mutating func duration(digits: [UInt8], exponent: Int, factor: Int, start: Int) -> Value {
        var digits = digits[...]
        var exponent = exponent
        // Trailing zeros only scale: drop them so `1.500s` and `10000000000000000000ms` fit.
        while let last = digits.last, last == 0, digits.count > 1 {
            digits.removeLast()
            exponent += 1
        }
        while let first = digits.first, first == 0, digits.count > 1 { digits.removeFirst() }
        var mantissa = 0
        var overflow = false
        for d in digits {
            let (times, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(d))
            overflow = overflow || o1 || o2
            mantissa = plus
        }
        var (result, o) = mantissa.multipliedReportingOverflow(by: factor)
        overflow = overflow || o
        if mantissa != 0 {
            while exponent > 0, !overflow {
                (result, o) = result.multipliedReportingOverflow(by: 10)
                overflow = overflow || o
                exponent -= 1
            }
            while exponent < 0, !overflow {
                guard result % 10 == 0 else {
                    error(
                        "duration '\(literalText(from: start))' is not a whole number of milliseconds",
                        line: line, column: column(at: start))
                    return .int(0)
                }
                result /= 10
                exponent += 1
            }
        }
        if overflow {
            error(
                "duration '\(literalText(from: start))' overflows a 64-bit integer", line: line,
                column: column(at: start))
            return .int(0)
        }
        return .int(result)
    }
}
