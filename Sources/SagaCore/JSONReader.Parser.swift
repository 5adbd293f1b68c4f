/// The recursive-descent parser behind ``JSONReader``: one pass over UTF-8 bytes, no
/// Foundation. Positions are byte offsets; line and column are computed only for an error.
extension JSONReader {
    struct Parser {
        let buf: UnsafeBufferPointer<UInt8>
        var pos = 0
        private var depth = 0
        /// Reused for strings that hold escapes, so each such string costs one copy.
        var scratch: [UInt8] = []
        /// ``SmallASCII/isAvailable``, read once per document rather than once per string.
        let smallASCII = SmallASCII.isAvailable

        init(_ buffer: UnsafeBufferPointer<UInt8>) {
            buf = buffer
        }

        mutating func parseDocument() throws(JSONError) -> Value {
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            if pos < buf.count {
                throw fail("unexpected \(describe(pos)) after the value", at: pos)
            }
            return value
        }

        // MARK: Values

        private mutating func parseValue() throws(JSONError) -> Value {
            guard pos < buf.count else { throw fail("unexpected end of input; expected a value", at: pos) }
            switch buf[pos] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""):
                var raw: Range<Int>? = nil
                return .string(try parseString(raw: &raw))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
            case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
            case UInt8(ascii: "n"): return try parseLiteral("null", .null)
            default: throw fail("unexpected \(describe(pos)); expected a value", at: pos)
            }
        }

        private mutating func parseLiteral(_ word: StaticString, _ value: Value) throws(JSONError) -> Value {
            let start = pos
            let n = word.utf8CodeUnitCount
            let matches = word.withUTF8Buffer { w in
                guard buf.count - start >= n else { return false }
                for i in 0..<n where buf[start &+ i] != w[i] { return false }
                return true
            }
            guard matches else { throw fail("unexpected \(describe(start)); expected a value", at: start) }
            pos = start &+ n
            return value
        }

        /// Counts one more level of nesting: inlined, as a call would cost a small record
        /// more than the count; the error is made out of line.
        @inline(__always)
        private mutating func enter(_ open: Int) throws(JSONError) {
            depth &+= 1
            if depth > JSONReader.maxDepth { throw tooDeep(open) }
        }

        @inline(never)
        private func tooDeep(_ open: Int) -> JSONError {
            fail("nesting is deeper than \(JSONReader.maxDepth) levels", at: open)
        }

        private mutating func parseArray() throws(JSONError) -> Value {
            let open = pos
            try enter(open)
            pos &+= 1
            skipWhitespace()
            var items: [Value] = []
            if pos < buf.count, buf[pos] == UInt8(ascii: "]") {
                pos &+= 1
                depth &-= 1
                return .list(items)
            }
            while true {
                items.append(try parseValue())
                skipWhitespace()
                guard pos < buf.count else { throw fail("unterminated array; expected ',' or ']'", at: pos) }
                let b = buf[pos]
                if b == UInt8(ascii: "]") {
                    pos &+= 1
                    break
                }
                guard b == UInt8(ascii: ",") else {
                    throw fail("unexpected \(describe(pos)) in array; expected ',' or ']'", at: pos)
                }
                let comma = pos
                pos &+= 1
                skipWhitespace()
                if pos < buf.count, buf[pos] == UInt8(ascii: "]") {
                    throw fail("trailing comma in array", at: comma)
                }
            }
            depth &-= 1
            return .list(items)
        }

        private mutating func parseObject() throws(JSONError) -> Value {
            let open = pos
            try enter(open)
            pos &+= 1
            skipWhitespace()
            var entries: [Record.Entry] = []
            var sorted = true
            // The previous key's bytes in the input, when it had no escapes: comparing bytes
            // in place is much cheaper than comparing the strings.
            var lastRaw: Range<Int>? = nil
            if pos < buf.count, buf[pos] == UInt8(ascii: "}") {
                pos &+= 1
                depth &-= 1
                return .record(Record())
            }
            while true {
                guard pos < buf.count else { throw fail("unterminated object; expected a string key", at: pos) }
                guard buf[pos] == UInt8(ascii: "\"") else {
                    throw fail("unexpected \(describe(pos)) in object; expected a string key", at: pos)
                }
                var raw: Range<Int>? = nil
                let key = try parseString(raw: &raw)
                skipWhitespace()
                guard pos < buf.count, buf[pos] == UInt8(ascii: ":") else {
                    throw fail("unexpected \(describe(pos)) after an object key; expected ':'", at: pos)
                }
                pos &+= 1
                skipWhitespace()
                let value: Value
                if pos < buf.count, buf[pos] == UInt8(ascii: "\"") {
                    // Most values of an action are strings (its type): read them without the
                    // dispatch of `parseValue`.
                    var valueRaw: Range<Int>? = nil
                    value = .string(try parseString(raw: &valueRaw))
                } else {
                    value = try parseValue()
                }
                if entries.isEmpty {
                    skipWhitespace()
                    if pos < buf.count, buf[pos] == UInt8(ascii: "}") {
                        // One entry (an action with only a type): an array literal is the
                        // cheapest allocation, cheaper than reserving room.
                        pos &+= 1
                        depth &-= 1
                        return .record(Record(sortedEntries: [Record.Entry(key: key, value: value)]))
                    }
                    entries.reserveCapacity(8)
                }
                let inOrder: Bool
                if let last = entries.last {
                    if let a = lastRaw, let b = raw {
                        inOrder = bytesPrecede(a, b)
                    } else {
                        inOrder = Parser.compareKeys(last.key, key) < 0
                    }
                } else {
                    inOrder = true
                }
                if inOrder {
                    entries.append(Record.Entry(key: key, value: value))
                    lastRaw = raw
                } else if sorted, entries.count < 32 {
                    // Input objects are often a little out of order (`{"type":…,"by":…}`):
                    // insert in place rather than sort at the end. The last entry keeps its key.
                    Parser.insert(key, value, into: &entries)
                } else {
                    sorted = false
                    entries.append(Record.Entry(key: key, value: value))
                    lastRaw = raw
                }
                skipWhitespace()
                guard pos < buf.count else { throw fail("unterminated object; expected ',' or '}'", at: pos) }
                let b = buf[pos]
                if b == UInt8(ascii: "}") {
                    pos &+= 1
                    break
                }
                guard b == UInt8(ascii: ",") else {
                    throw fail("unexpected \(describe(pos)) in object; expected ',' or '}'", at: pos)
                }
                let comma = pos
                pos &+= 1
                skipWhitespace()
                if pos < buf.count, buf[pos] == UInt8(ascii: "}") {
                    throw fail("trailing comma in object", at: comma)
                }
            }
            depth &-= 1
            // Not `sorted ? entries : …`: the conditional would copy the array (a retain and a
            // release a record); passed as it is, it moves.
            if !sorted { entries = Record.sortedUnique(entries) }
            return .record(Record(sortedEntries: entries))
        }

        /// Whether the input bytes in `a` sort strictly before those in `b`.
        private func bytesPrecede(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            let n = Swift.min(a.count, b.count)
            var i = 0
            while i < n {
                let x = buf[a.lowerBound &+ i]
                let y = buf[b.lowerBound &+ i]
                if x != y { return x < y }
                i &+= 1
            }
            return a.count < b.count
        }

        /// Inserts an entry into sorted `entries`, replacing one with the same key.
        private static func insert(_ key: String, _ value: Value, into entries: inout [Record.Entry]) {
            var i = entries.count
            while i > 0 {
                let order = compareKeys(entries[i &- 1].key, key)
                if order == 0 {
                    entries[i &- 1].value = value
                    return
                }
                if order < 0 { break }
                i &-= 1
            }
            // Appended, then moved down past the entries it precedes: `insert(_:at:)` goes
            // through the generic `replaceSubrange` (an action such as `{"type":…,"n":…}`
            // puts `n` before `type`).
            entries.append(Record.Entry(key: key, value: value))
            entries.withUnsafeMutableBufferPointer { all in
                var j = all.count &- 1
                while j > i {
                    all.swapAt(j, j &- 1)
                    j &-= 1
                }
            }
        }

        /// Orders keys by Unicode scalar value (UTF-8 byte order): -1, 0 or 1, as records
        /// order them (two small keys, as an action's usually are, through their bits).
        static func compareKeys(_ a: String, _ b: String) -> Int {
            Record.compareKeys(a, b).signum()
        }

        // MARK: Numbers

        private mutating func parseNumber() throws(JSONError) -> Value {
            let start = pos
            let negative = buf[pos] == UInt8(ascii: "-")
            if negative { pos &+= 1 }
            guard pos < buf.count, isDigit(buf[pos]) else {
                throw fail("expected a digit after '-'", at: pos)
            }
            var magnitude: UInt64 = 0
            var overflow = false
            if buf[pos] == UInt8(ascii: "0") {
                pos &+= 1
                if pos < buf.count, isDigit(buf[pos]) {
                    throw fail("leading zeros are not allowed in numbers", at: start)
                }
            } else {
                while pos < buf.count, isDigit(buf[pos]) {
                    let digit = UInt64(buf[pos] &- UInt8(ascii: "0"))
                    let (m, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (s, o2) = m.addingReportingOverflow(digit)
                    overflow = overflow || o1 || o2
                    magnitude = s
                    pos &+= 1
                }
            }
            var integral = true
            if pos < buf.count, buf[pos] == UInt8(ascii: ".") {
                integral = false
                pos &+= 1
                guard pos < buf.count, isDigit(buf[pos]) else { throw fail("expected a digit after '.'", at: pos) }
                while pos < buf.count, isDigit(buf[pos]) { pos &+= 1 }
            }
            if pos < buf.count, buf[pos] == UInt8(ascii: "e") || buf[pos] == UInt8(ascii: "E") {
                integral = false
                pos &+= 1
                if pos < buf.count, buf[pos] == UInt8(ascii: "+") || buf[pos] == UInt8(ascii: "-") { pos &+= 1 }
                guard pos < buf.count, isDigit(buf[pos]) else {
                    throw fail("expected a digit in the exponent", at: pos)
                }
                while pos < buf.count, isDigit(buf[pos]) { pos &+= 1 }
            }
            if integral, !overflow {
                if !negative, magnitude <= UInt64(Int.max) { return .int(Int(truncatingIfNeeded: magnitude)) }
                if negative, magnitude <= UInt64(Int.max) &+ 1 {
                    return .int(Int(truncatingIfNeeded: 0 &- magnitude))
                }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buf[start..<pos]), as: UTF8.self)
            guard let d = Double(text), d.isFinite else {
                throw fail("number \(text) is out of range", at: start)
            }
            return .double(d)
        }

        @inline(__always)
        private func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

        // MARK: White space and errors

        @inline(__always)
        private mutating func skipWhitespace() {
            while pos < buf.count {
                switch buf[pos] {
                case 0x20, 0x0A, 0x0D, 0x09: pos &+= 1
                default: return
                }
            }
        }

        /// The character at `p` as an error message names it.
        func describe(_ p: Int) -> String {
            guard p < buf.count else { return "end of input" }
            let b = buf[p]
            if b > 0x20, b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            if b < 0x80 { return "character U+00\(hex(UInt16(b)).suffix(2))" }
            let length = utf8SequenceLength(at: p)
            guard length > 0 else { return "invalid UTF-8" }
            let scalar = String(decoding: UnsafeBufferPointer(rebasing: buf[p..<(p &+ length)]), as: UTF8.self)
            return "'\(scalar)'"
        }

        /// An error at byte offset `offset`, with its 1-based line and column (in scalars).
        func fail(_ message: String, at offset: Int) -> JSONError {
            var line = 1
            var column = 1
            var i = 0
            let end = min(offset, buf.count)
            while i < end {
                let b = buf[i]
                if b == 0x0A {
                    line &+= 1
                    column = 1
                } else if b & 0xC0 != 0x80 {
                    column &+= 1
                }
                i &+= 1
            }
            return JSONError(message: message, line: line, column: column)
        }
    }
}
