/// Action-type globs: `*` matches any run of characters, everything else itself.
///
/// Shared by the runtime's patterns and the program graph, so that both agree on what matches.
package enum Glob {
    /// Whether `text` matches `pattern` (UTF-8 bytes).
    ///
    /// Backtracks to the last `*` only, so it is linear in practice.
    package static func matches(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        match(pattern, text)
    }

    /// Whether the action type `text` matches `pattern`, over the text's UTF-8 in place:
    /// no array of its bytes per action.
    package static func matches(_ pattern: ArraySlice<UInt8>, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { match(pattern, $0) }
    }

    private static func match<Text: RandomAccessCollection<UInt8>>(_ pattern: ArraySlice<UInt8>, _ text: Text) -> Bool
    where Text.Index == Int {
        var p = pattern.startIndex
        var t = text.startIndex
        var star: Int?
        var mark = t
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
                star = p
                p += 1
                mark = t
            } else if p < pattern.endIndex, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let s = star {
                p = s + 1
                mark += 1
                t = mark
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.endIndex
    }
}

extension Value {
    /// Compares an integer with a double exactly (converting the integer could round it): -1,
    /// 0 or 1.
    ///
    /// NaN counts as greater than every integer.
    package static func compareExactly(_ x: Int, _ y: Double) -> Int {
        if y.isNaN { return 1 }
        // 2^63 is exactly representable; every Int is below it and at or above -2^63.
        if y >= 9_223_372_036_854_775_808.0 { return -1 }
        if y < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = y.rounded(.down)
        let f = Int(floor)
        if x < f { return -1 }
        if x > f { return 1 }
        return floor == y ? 0 : -1
    }
}
