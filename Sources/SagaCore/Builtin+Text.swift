/// The text side of the built-ins: number parsing for `int` and `number`, and substring
/// search for `contains` and `split`, all on UTF-8 bytes (so by Unicode scalars, never by locale).
extension Builtin {
    /// `split(s, sep)`: an empty separator splits into characters; otherwise the parts between
    /// non-overlapping occurrences of `sep`, so `split("a,b,", ",")` is `["a", "b", ""]`.
    func split(_ value: Value, _ separator: Value) throws(SagaError) -> Value {
        let s = try string(value)
        guard case .string(let sep) = separator else { throw typeError("a string separator", got: separator) }
        // At most one part per byte (plus one): past the list limit, fail before building it.
        if s.utf8.count >= Value.maxListCount { try Value.checkListCount(sep.isEmpty ? s.count : parts(of: s, sep)) }
        if sep.isEmpty { return .list(s.map { .string(String($0)) }) }
        let bytes = Array(s.utf8)
        let needle = Array(sep.utf8)
        var parts: [Value] = []
        var start = 0
        // A valid UTF-8 needle can only match at scalar boundaries, so every part is valid UTF-8.
        while let hit = Builtin.firstOffset(of: needle, in: bytes, from: start) {
            parts.append(.string(String(decoding: bytes[start..<hit], as: UTF8.self)))
            start = hit &+ needle.count
        }
        parts.append(.string(String(decoding: bytes[start...], as: UTF8.self)))
        return .list(parts)
    }

    /// How many parts `split(s, sep)` makes, for a non-empty `sep`.
    private func parts(of s: String, _ sep: String) -> Int {
        let bytes = Array(s.utf8)
        let needle = Array(sep.utf8)
        var count = 1
        var start = 0
        while let hit = Builtin.firstOffset(of: needle, in: bytes, from: start) {
            count += 1
            start = hit &+ needle.count
        }
        return count
    }

    /// The offset of the first occurrence of `needle` in `haystack` at or after `from`.
    static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from: Int = 0) -> Int? {
        guard let first = needle.first else { return from }
        let n = needle.count
        var i = from
        let last = haystack.count &- n
        while i <= last {
            if haystack[i] == first {
                var j = 1
                while j < n, haystack[i &+ j] == needle[j] { j &+= 1 }
                if j == n { return i }
            }
            i &+= 1
        }
        return nil
    }

    /// An integer written in decimal, with optional sign and surrounding white space.
    ///
    /// - Returns: `nil` when the text is not an integer; `.some(nil)` when it is one that does not fit `Int`.
    static func parseInteger(_ text: String) -> Int?? {
        let bytes = trimmed(text)
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < bytes.count else { return nil }
        var value = 0
        var overflow = false
        while i < bytes.count {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            // Accumulate negatively so that Int.min is reachable.
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int(digit))
            overflow = overflow || o1 || o2
            value = s
            i += 1
        }
        if overflow { return .some(nil) }
        if negative { return .some(value) }
        return value == Int.min ? .some(nil) : .some(-value)
    }

    /// A decimal number: `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, with
    /// surrounding white space.
    ///
    /// Integers that fit `Int` give `.int`, others `.double`.
    ///
    /// - Returns: `nil` when the text is not a number; `.some(nil)` when it is out of range.
    static func parseNumber(_ text: String) -> Value?? {
        let bytes = trimmed(text)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        var mantissaDigits = digits()
        var integral = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            integral = false
            i += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return nil }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integral = false
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == bytes.count else { return nil }
        let clean = String(decoding: bytes, as: UTF8.self)
        if integral, case .some(.some(let n)) = parseInteger(clean) { return .some(.int(n)) }
        guard let d = Double(clean) else { return nil }
        return d.isFinite ? .some(.double(d)) : .some(nil)
    }

    /// The UTF-8 bytes of `text` without leading and trailing ASCII white space.
    private static func trimmed(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var lo = 0
        var hi = bytes.count
        while lo < hi, isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
        return Array(bytes[lo..<hi])
    }
}
