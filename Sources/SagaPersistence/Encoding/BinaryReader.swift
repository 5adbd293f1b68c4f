import SagaCore

/// Reads what ``BinaryWriter`` wrote, from a buffer that must outlive the reader.
///
/// Every read is bounds-checked: a bad byte gives `nil` or a thrown ``Malformed``, never a
/// crash.
struct BinaryReader {
    /// The encoding is not valid (a truncated varint, an unknown tag, a string past the end…).
    struct Malformed: Error {}

    let buffer: UnsafeRawBufferPointer
    var position: Int

    init(_ buffer: UnsafeRawBufferPointer, at position: Int = 0) {
        self.buffer = buffer
        self.position = position
    }

    var remaining: Int { buffer.count - position }

    mutating func u8() throws(Malformed) -> UInt8 {
        guard position < buffer.count else { throw Malformed() }
        defer { position += 1 }
        return buffer[position]
    }

    mutating func u32() throws(Malformed) -> UInt32 {
        guard remaining >= 4 else { throw Malformed() }
        defer { position += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    mutating func u64() throws(Malformed) -> UInt64 {
        guard remaining >= 8 else { throw Malformed() }
        defer { position += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    mutating func varint() throws(Malformed) -> UInt64 {
        // Most varints (lengths, counts, small numbers) are one byte.
        if position < buffer.count, buffer[position] < 0x80 {
            defer { position += 1 }
            return UInt64(buffer[position])
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < buffer.count, shift < 64 else { throw Malformed() }
            let b = buffer[position]
            position += 1
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    /// A varint that must fit the rest of the buffer (a count of bytes or items).
    mutating func count() throws(Malformed) -> Int {
        let n = try varint()
        guard n <= UInt64(remaining) else { throw Malformed() }
        return Int(n)
    }

    mutating func string() throws(Malformed) -> String {
        var none = KeyCache()
        return try string(&none)
    }

    /// A string, taken from `cache` when it made the same bytes before.
    mutating func string(_ cache: inout KeyCache) throws(Malformed) -> String {
        cache.string(try stringBytes())
    }

    /// The bytes of the next string, which the reader moves past.
    private mutating func stringBytes() throws(Malformed) -> UnsafeBufferPointer<UInt8> {
        let n = try count()
        guard let base = buffer.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        defer { position += n }
        return UnsafeBufferPointer(start: (base + position).assumingMemoryBound(to: UInt8.self), count: n)
    }

    /// Reads one value.
    mutating func value() throws(Malformed) -> Value {
        var none = KeyCache()
        var id: Value?
        return try value(depth: 0, keys: &none, id: &id)
    }

    /// Reads one element: a value, and the value of its `id` key when it is a record whose
    /// keys are in order (nil otherwise: ``ElementID/of(_:)`` must then look, and decide).
    ///
    /// Keys come from `keys` when it made them before.
    mutating func element(keys: inout KeyCache) throws(Malformed) -> (value: Value, id: Value?) {
        var id: Value?
        let value = try value(depth: 0, keys: &keys, id: &id)
        return (value, id)
    }

    private mutating func value(depth: Int, keys: inout KeyCache, id: inout Value?) throws(Malformed) -> Value {
        switch try u8() {
        case ValueTag.null: return .null
        case ValueTag.false: return .bool(false)
        case ValueTag.true: return .bool(true)
        case ValueTag.int:
            let z = try varint()
            return .int(Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))))
        case ValueTag.double: return .double(Double(bitPattern: try u64()))
        case ValueTag.string: return .string(try string())
        case ValueTag.list:
            guard depth < BinaryWriter.maxDepth else { throw Malformed() }
            let n = try count()
            var items: [Value] = []
            items.reserveCapacity(n)
            var inner: Value?
            for _ in 0..<n { items.append(try value(depth: depth + 1, keys: &keys, id: &inner)) }
            return .list(items)
        case ValueTag.record:
            guard depth < BinaryWriter.maxDepth else { throw Malformed() }
            let n = try count()
            var entries: [Record.Entry] = []
            entries.reserveCapacity(n)
            var sorted = true
            var previous = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
            var found: Value?
            var inner: Value?
            for i in 0..<n {
                let bytes = try stringBytes()
                let key = keys.string(bytes)
                if sorted, i > 0 {
                    // ASCII bytes are the key's UTF-8, so they compare in place, as
                    // Record.keyPrecedes would; other bytes may have been repaired.
                    if BinaryReader.isASCII(previous) && BinaryReader.isASCII(bytes) {
                        sorted = BinaryReader.precedes(previous, bytes)
                    } else if let last = entries.last {
                        sorted = Record.keyPrecedes(last.key, key)
                    }
                }
                previous = bytes
                let v = try value(depth: depth + 1, keys: &keys, id: &inner)
                if depth == 0, BinaryReader.isID(bytes) { found = v }
                entries.append(Record.Entry(key: key, value: v))
            }
            // The writer keeps keys sorted; only a damaged file could break the record's invariant.
            if sorted {
                id = found
                return .record(Record(sortedEntries: entries))
            }
            return .record(Record(entries.map { ($0.key, $0.value) }))
        default:
            throw Malformed()
        }
    }

    /// Whether `a` comes before `b` in UTF-8 byte order (``Record/keyPrecedes(_:_:)``).
    private static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = Swift.min(a.count, b.count)
        for i in 0..<n where a[i] != b[i] { return a[i] < b[i] }
        return a.count < b.count
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b >= 0x80 { return false }
        return true
    }

    /// Whether `bytes` spell `id`.
    private static func isID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 2 && bytes[0] == UInt8(ascii: "i") && bytes[1] == UInt8(ascii: "d")
    }
}
