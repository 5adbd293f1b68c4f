/// Writes values as canonical JSON (see “Canonical JSON” in Sagas/README.md) into a byte
/// buffer.
///
/// The bytes are UTF-8 by construction (string contents are copied from valid Swift strings,
/// everything else is ASCII), so turning them into a `String` never needs repair.
struct CanonicalJSONWriter: ~Copyable {
    /// Where the bytes go: first the caller's (stack) buffer, then heap memory once that is full.
    private var base: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    private(set) var count: Int
    private var capacity: Int
    /// Whether `base` is heap memory this writer must free.
    private var ownsBase: Bool
    /// Set once the text would grow past its limit: what is written is a prefix, and the
    /// writer has stopped (a value whose parts are shared, `r = {a: r, b: r}` repeated, can be
    /// exponentially longer as text than in memory).
    private(set) var truncated = false

    /// The longest text written (``Value/maxTextBytes`` unless a caller asks for less).
    private let limit: Int

    /// A writer that starts in `buffer` (typically stack memory) and moves to the heap if it
    /// outgrows it.
    ///
    /// The writer must not outlive `buffer`.
    init(startingIn buffer: UnsafeMutableBufferPointer<UInt8>, limit: Int = Value.maxTextBytes) {
        self.limit = limit
        if let start = buffer.baseAddress, buffer.count > 0 {
            base = start
            capacity = buffer.count
            ownsBase = false
        } else {
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
            capacity = 64
            ownsBase = true
        }
        // The capacity never passes the limit, so that appends within it need no check.
        capacity = Swift.max(0, Swift.min(capacity, limit))
        count = 0
    }

    deinit {
        if ownsBase { base.deallocate() }
    }

    /// Writes `value` as canonical JSON and hands the bytes to `body`, with whether they were
    /// cut at `limit` bytes.
    static func withCanonicalJSON<R>(
        of value: Value, limit: Int = Value.maxTextBytes, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> R
    ) -> R {
        // Most values (an action, a log line) fit on the stack, so only the result allocates.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            var writer = CanonicalJSONWriter(startingIn: buffer, limit: limit)
            writer.write(value)
            let truncated = writer.truncated
            return writer.withBytes { body($0, truncated) }
        }
    }

    /// Hands the bytes written so far to `body`; they stay valid only during the call.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        // A borrowing method keeps the writer (and any heap memory it owns) alive during `body`.
        body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `n` more bytes; `false` past the limit, and from then on.
    @inline(never)
    private mutating func grow(_ n: Int) -> Bool {
        guard !truncated, count &+ n <= limit else {
            truncated = true
            // Every later append comes here too, and writes nothing.
            capacity = count
            return false
        }
        var newCapacity = capacity &* 2
        while newCapacity &- count < n { newCapacity &*= 2 }
        // Never past the limit: appends within the capacity do not come here to be checked.
        newCapacity = Swift.min(newCapacity, limit)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBase = true
        return true
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        if count == capacity, !grow(1) { return }
        base[count] = byte
        count &+= 1
    }

    @inline(__always)
    private mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        guard let source = run.baseAddress else { return }
        if capacity &- count < run.count, !grow(run.count) { return }
        (base + count).update(from: source, count: run.count)
        count &+= run.count
    }

    mutating func write(_ value: Value) {
        switch value {
        case .null: writeASCII("null")
        case .bool(let b): writeASCII(b ? "true" : "false")
        case .int(let i): write(i)
        case .double(let d): write(d)
        case .string(let s): write(s)
        case .list(let items):
            append(UInt8(ascii: "["))
            var first = true
            for item in items {
                if truncated { return }
                if !first { append(UInt8(ascii: ",")) }
                first = false
                write(item)
            }
            append(UInt8(ascii: "]"))
        case .record(let r):
            if case .typed(let type) = r.storage {
                // Written from the string: its entry, as an array, would be made to be read. The
                // key is `type`, which needs no escaping.
                writeASCII("{\"type\":")
                write(type)
                append(UInt8(ascii: "}"))
                return
            }
            append(UInt8(ascii: "{"))
            var first = true
            // By index over each run: the iterator would copy every entry out.
            for k in 0..<r.runCount {
                let entries = r.run(k)
                for i in entries.indices {
                    if truncated { return }
                    if !first { append(UInt8(ascii: ",")) }
                    first = false
                    write(entries[i].key)
                    append(UInt8(ascii: ":"))
                    write(entries[i].value)
                }
            }
            append(UInt8(ascii: "}"))
        case .handle(let h):
            // Handles are opaque: a readable string, so transcripts stay valid JSON.
            append(UInt8(ascii: "\""))
            append(UInt8(ascii: "<"))
            writeASCII(h.kind == .task ? "task " : "channel ")
            write(h.id)
            append(UInt8(ascii: ">"))
            append(UInt8(ascii: "\""))
        }
    }

    /// Appends a static ASCII string (no escaping).
    @inline(__always)
    mutating func writeASCII(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends the decimal digits of `i` without going through `String`.
    mutating func write(_ i: Int) {
        if i >= 0, i < 10 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: i))
            return
        }
        if i < 0 { append(UInt8(ascii: "-")) }
        var magnitude = i.magnitude
        // At most 20 digits: reserve them, then fill from the right.
        if capacity &- count < 20, !grow(20) { return }
        var digits = 0
        var m = magnitude
        repeat {
            digits &+= 1
            m /= 10
        } while m != 0
        var p = count &+ digits
        repeat {
            let (q, r) = magnitude.quotientAndRemainder(dividingBy: 10)
            p &-= 1
            base[p] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: r)
            magnitude = q
        } while magnitude != 0
        count &+= digits
    }

    /// Integral doubles within ±2^53 as integers; others in the shortest round-trip form,
    /// laid out as JavaScript does; non-finite as `null`.
    mutating func write(_ d: Double) {
        guard d.isFinite else {
            writeASCII("null")
            return
        }
        if d.rounded(.towardZero) == d, d.magnitude <= 9_007_199_254_740_992 {
            // Exact: the magnitude is at most 2^53. `-0.0` becomes `0`.
            write(Int(d))
            return
        }
        // Swift's description gives the shortest digits that read back to the same double;
        // lay them out as ECMAScript's Number-to-String does (what JSON.stringify prints):
        // plain digits below 1e21, plain decimals down to 1e-6, an exponent otherwise.
        var digits: [UInt8] = []
        var negative = false
        var point: Int?
        var inExponent = false
        var exponentNegative = false
        var exponent = 0
        for byte in d.description.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "."):
                point = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent &* 10 &+ Int(byte &- UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                }
            default:
                break
            }
        }
        // The decimal point sits after `n` digits.
        var n = (point ?? digits.count) + (exponentNegative ? -exponent : exponent)
        var first = 0
        while first < digits.count, digits[first] == UInt8(ascii: "0") {
            first += 1
            n -= 1
        }
        var last = digits.count
        while last > first, digits[last - 1] == UInt8(ascii: "0") { last -= 1 }
        let significant = digits[first..<last]
        let k = significant.count
        guard k > 0 else {
            append(UInt8(ascii: "0"))
            return
        }
        if negative { append(UInt8(ascii: "-")) }
        if k <= n, n <= 21 {
            for b in significant { append(b) }
            for _ in 0..<(n - k) { append(UInt8(ascii: "0")) }
        } else if n > 0, n <= 21 {
            for (i, b) in significant.enumerated() {
                if i == n { append(UInt8(ascii: ".")) }
                append(b)
            }
        } else if n > -6, n <= 0 {
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "."))
            for _ in 0..<(-n) { append(UInt8(ascii: "0")) }
            for b in significant { append(b) }
        } else {
            for (i, b) in significant.enumerated() {
                if i == 1 { append(UInt8(ascii: ".")) }
                append(b)
            }
            append(UInt8(ascii: "e"))
            let e = n - 1
            append(e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            write(Int(e.magnitude))
        }
    }

    /// A JSON string literal: escapes `"`, `\` and control characters, keeps the rest as is.
    mutating func write(_ s: String) {
        append(UInt8(ascii: "\""))
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { writeEscaped($0) }
        if done == nil {
            // Bridged or otherwise non-contiguous strings: copy once, then take the fast path.
            let copy = Array(s.utf8)
            copy.withUnsafeBufferPointer { writeEscaped($0) }
        }
        append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            let byte = utf8[i]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                i &+= 1
                continue
            }
            if runStart < i {
                append(UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            }
            append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): append(UInt8(ascii: "\\"))
            case UInt8(ascii: "\n"): append(UInt8(ascii: "n"))
            case UInt8(ascii: "\t"): append(UInt8(ascii: "t"))
            case UInt8(ascii: "\r"): append(UInt8(ascii: "r"))
            case 0x08: append(UInt8(ascii: "b"))
            case 0x0C: append(UInt8(ascii: "f"))
            default:
                // Other control characters: `\u00XX` with lowercase hex digits.
                let hex: StaticString = "0123456789abcdef"
                append(UInt8(ascii: "u"))
                append(UInt8(ascii: "0"))
                append(UInt8(ascii: "0"))
                hex.withUTF8Buffer { digits in
                    append(digits[Int(byte >> 4)])
                    append(digits[Int(byte & 0xF)])
                }
            }
            i &+= 1
            runStart = i
        }
        if runStart < n {
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<n]))
        }
    }
}
