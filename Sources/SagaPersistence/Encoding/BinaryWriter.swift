import SagaCore

/// Appends the store's binary encoding: little-endian integers, LEB128 varints, and values as
/// a tagged format (see ``ValueTag``).
///
/// Encoding is the callers' work, off the writer thread.
struct BinaryWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []

    /// The deepest nesting of lists and records that is stored (as deep as JSON reads).
    static let maxDepth = 512

    init(capacity: Int = 64) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Appends `value`.
    ///
    /// - Throws: `.invalidElement` for a task or channel handle, or nesting deeper than
    ///   ``maxDepth``: neither could be read back.
    mutating func write(_ value: Value) throws(StoreError) {
        try write(value, depth: 0)
    }

    private mutating func write(_ value: Value, depth: Int) throws(StoreError) {
        switch value {
        case .null: u8(ValueTag.null)
        case .bool(let b): u8(b ? ValueTag.true : ValueTag.false)
        case .int(let i):
            u8(ValueTag.int)
            varint(UInt64(bitPattern: Int64((i << 1) ^ (i >> 63))))
        case .double(let d):
            u8(ValueTag.double)
            u64(d.bitPattern)
        case .string(let s):
            u8(ValueTag.string)
            string(s)
        case .list(let items):
            guard depth < Self.maxDepth else { throw Self.tooDeep }
            u8(ValueTag.list)
            varint(UInt64(items.count))
            for item in items { try write(item, depth: depth + 1) }
        case .record(let r):
            guard depth < Self.maxDepth else { throw Self.tooDeep }
            u8(ValueTag.record)
            varint(UInt64(r.count))
            for entry in r {
                string(entry.key)
                try write(entry.value, depth: depth + 1)
            }
        case .handle(let h):
            throw .invalidElement("a \(h.kind.rawValue) handle cannot be stored in an element")
        }
    }

    private static var tooDeep: StoreError {
        .invalidElement("an element nested deeper than \(maxDepth) lists or records cannot be stored")
    }
}

/// The first byte of each encoded value.
enum ValueTag {
    static let null: UInt8 = 0
    static let `false`: UInt8 = 1
    static let `true`: UInt8 = 2
    /// A zigzag varint follows.
    static let int: UInt8 = 3
    /// Eight bytes of IEEE 754 bits follow, little-endian.
    static let double: UInt8 = 4
    /// A varint byte count and UTF-8 follow.
    static let string: UInt8 = 5
    /// A varint count and the items follow.
    static let list: UInt8 = 6
    /// A varint count and (key string, value) pairs follow, keys in sorted order.
    static let record: UInt8 = 7
}
