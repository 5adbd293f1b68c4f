/// String literals for ``JSONReader``: escapes, surrogate pairs and UTF-8 validation.
extension JSONReader.Parser {
    /// Reads the string at `pos`; `raw` is set to its bytes in the input when it has no escapes.
    mutating func parseString(raw: inout Range<Int>?) throws(JSONError) -> String {
        let open = pos
        // Most strings are printable ASCII without escapes (keys, action types): find their
        // end eight bytes at a time, then byte by byte (over locals: through `self`, each
        // byte costs several times as much), and make the string straight from the input.
        let bytes = buf
        let end = bytes.count
        let start = open &+ 1
        var p = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end &- p >= 8 {
                let stops = SmallASCII.stops(SmallASCII.word(raw, at: p))
                if stops != 0 {
                    p &+= stops.trailingZeroBitCount &>> 3
                    break
                }
                p &+= 8
            }
        }
        while p < end {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") {
                pos = p &+ 1
                raw = start..<p
                if smallASCII, p &- start <= SmallASCII.capacity { return SmallASCII.string(in: bytes, start..<p) }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<p])
                return String(unsafeUninitializedCapacity: run.count) { $0.initialize(fromContentsOf: run) }
            }
            // A backslash, a control character or a byte of a multi-byte sequence (both of
            // the last two wrap to 0x60 or more).
            if b == UInt8(ascii: "\\") || b &- 0x20 >= 0x60 { break }
            p &+= 1
        }
        pos = p
        return try parseRestOfString(open: open, raw: &raw)
    }

    /// Reads the rest of the string that opens at `open`, from `pos`: the part that may hold
    /// escapes, control characters (an error) and non-ASCII UTF-8 (validated here).
    private mutating func parseRestOfString(open: Int, raw: inout Range<Int>?) throws(JSONError) -> String {
        var runStart = open &+ 1
        var escaped = false
        while true {
            guard pos < buf.count else { throw fail("unterminated string", at: open) }
            let b = buf[pos]
            if b == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: buf[runStart..<pos])
                pos &+= 1
                if !escaped {
                    raw = runStart..<(pos &- 1)
                    return String(decoding: run, as: UTF8.self)
                }
                scratch.append(contentsOf: run)
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: buf[runStart..<pos]))
                try parseEscape()
                runStart = pos
            } else if b < 0x20 {
                throw fail("unescaped control \(describe(pos)) in string", at: pos)
            } else if b < 0x80 {
                pos &+= 1
            } else {
                try skipUTF8Sequence()
            }
        }
    }

    /// Decodes the escape at `pos` (which holds the backslash) into `scratch`.
    private mutating func parseEscape() throws(JSONError) {
        let start = pos
        pos &+= 1
        guard pos < buf.count else { throw fail("unterminated string", at: start) }
        let b = buf[pos]
        pos &+= 1
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(b)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeAt: start)
            var scalarValue = UInt32(unit)
            if unit >= 0xDC00, unit <= 0xDFFF {
                throw fail("lone low surrogate \\u\(hex(unit)) in string", at: start)
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                let second = pos
                guard buf.count - pos >= 2, buf[pos] == UInt8(ascii: "\\"), buf[pos &+ 1] == UInt8(ascii: "u") else {
                    throw fail("lone high surrogate \\u\(hex(unit)) in string", at: start)
                }
                pos &+= 2
                let low = try parseHex4(escapeAt: second)
                guard low >= 0xDC00, low <= 0xDFFF else {
                    throw fail("lone high surrogate \\u\(hex(unit)) in string", at: start)
                }
                scalarValue = 0x10000 &+ ((UInt32(unit) &- 0xD800) << 10) &+ (UInt32(low) &- 0xDC00)
            }
            appendUTF8(scalarValue)
        default:
            throw fail("invalid escape \(describe(pos &- 1)) in string", at: start)
        }
    }

    /// Appends a scalar value (never a surrogate: those were paired above) as UTF-8.
    private mutating func appendUTF8(_ v: UInt32) {
        switch v {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: v))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(truncatingIfNeeded: v >> 6))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(truncatingIfNeeded: v >> 12))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (v >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(truncatingIfNeeded: v >> 18))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (v >> 12) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (v >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: v & 0x3F))
        }
    }

    private mutating func parseHex4(escapeAt start: Int) throws(JSONError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard pos < buf.count else { throw fail("unterminated \\u escape", at: start) }
            let b = buf[pos]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b &- UInt8(ascii: "A") &+ 10
            default: throw fail("invalid \\u escape: expected 4 hex digits", at: start)
            }
            unit = unit << 4 | UInt16(digit)
            pos &+= 1
        }
        return unit
    }

    func hex(_ unit: UInt16) -> String {
        let s = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// Checks the multi-byte UTF-8 sequence at `pos` (Unicode Table 3-7) and steps over it.
    private mutating func skipUTF8Sequence() throws(JSONError) {
        let length = utf8SequenceLength(at: pos)
        guard length > 0 else { throw fail("invalid UTF-8", at: pos) }
        pos &+= length
    }

    /// The length of the valid UTF-8 sequence at `p`, or 0 if it is invalid or cut short.
    func utf8SequenceLength(at p: Int) -> Int {
        let b0 = buf[p]
        let remaining = buf.count &- p
        @inline(__always) func cont(_ i: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            i < remaining && buf[p &+ i] >= lo && buf[p &+ i] <= hi
        }
        switch b0 {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }
}
