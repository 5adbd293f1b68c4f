import SagaCore

/// The actions of input lines that are exactly `{"type":"T"}`: the same value at every such
/// line of one type, so made once and shared (values are immutable), as `put "t"` shares its
/// action (``LiteralAction``).
///
/// Such a line costs a comparison of its bytes instead of the JSON reader, a record and a
/// string made, and their freeing once the action is done with.
///
/// Only that spelling is recognised (no spaces, `type` alone, `T` of printable ASCII other
/// than `"` and `\`, at most ``maxTypeBytes`` long); any other line, and any type past the
/// first ``maxTypes``, is read by the JSON reader, which gives the same value.
struct TypeOnlyLines {
    /// The most types remembered: a stream of many distinct types must not grow this without
    /// end, nor make each line look through a long list.
    static let maxTypes = 16
    /// The longest type remembered, in bytes: what is kept stays small whatever the input.
    static let maxTypeBytes = 64

    private struct Known {
        let type: [UInt8]
        let action: Value
    }

    private var known: [Known] = []

    /// `{"type":` as eight bytes read at once, little-endian (`{` is the low byte): a literal,
    /// where a computed constant would be a lazy global checked at every line.
    static let head: UInt64 = 0x3A22_6570_7974_227B

    /// The action of `line` if it is exactly `{"type":"T"}`, or `nil` (parse it as JSON).
    mutating func action(_ line: UnsafeBufferPointer<UInt8>) -> Value? {
        // `{"type":"` and `"}`.
        let head = 9
        guard line.count >= head + 2, let base = line.baseAddress else { return nil }
        let end = line.count - 2
        guard UnsafeRawPointer(base).loadUnaligned(as: UInt64.self) == Self.head.littleEndian,
            base[8] == UInt8(ascii: "\""), base[end] == UInt8(ascii: "\""), base[end + 1] == UInt8(ascii: "}")
        else { return nil }
        guard end - head <= Self.maxTypeBytes else { return nil }
        let type = UnsafeBufferPointer(start: base + head, count: end - head)
        // A known type's bytes passed the check below when it became known: compared first,
        // a line of a known type is not checked again.
        // By index, the bytes compared where they are: iterating would copy each entry.
        for i in known.indices {
            let found = known[i].type.withUnsafeBufferPointer { k in
                k.count == type.count && (k.isEmpty || Self.same(base + head, k.baseAddress, k.count))
            }
            if found { return known[i].action }
        }
        for byte in type where byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return nil
        }
        guard known.count < Self.maxTypes else { return nil }
        let action = LiteralAction.typeOnly(String(decoding: type, as: UTF8.self))
        known.append(Known(type: Array(type), action: action))
        return action
    }

    /// Whether `count` bytes at `a` and at `b` are the same.
    private static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
        guard let b else { return count == 0 }
        for i in 0..<count where a[i] != b[i] { return false }
        return true
    }
}
