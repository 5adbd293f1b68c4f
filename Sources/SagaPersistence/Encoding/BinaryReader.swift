import SagaCore

/// Reads what ``BinaryWriter`` wrote, from a buffer that must outlive the reader. Every read
/// is bounds-checked: a bad byte gives `nil` or a thrown ``Malformed``, never a crash.
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
        let n = try count()
        guard let base = buffer.baseAddress else { return "" }
        let bytes = UnsafeBufferPointer(start: (base + position).assumingMemoryBound(to: UInt8.self), count: n)
        position += n
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one value.
    mutating func value() throws(Malformed) -> Value {
        try value(depth: 0)
    }

    private mutating func value(depth: Int) throws(Malformed) -> Value {
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
            for _ in 0..<n { items.append(try value(depth: depth + 1)) }
            return .list(items)
        case ValueTag.record:
            guard depth < BinaryWriter.maxDepth else { throw Malformed() }
            let n = try count()
            var entries: [(key: String, value: Value)] = []
            entries.reserveCapacity(n)
            var sorted = true
            for _ in 0..<n {
                let k = try string()
                if sorted, let last = entries.last, !Record.keyPrecedes(last.key, k) { sorted = false }
                entries.append((k, try value(depth: depth + 1)))
            }
            // The writer keeps keys sorted; only a damaged file could break the record's invariant.
            return .record(sorted ? Record(sortedEntries: entries) : Record(entries.map { ($0.key, $0.value) }))
        default:
            throw Malformed()
        }
    }
}
