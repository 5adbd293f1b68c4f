#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The strings a decoder made recently, found again by their bytes: record keys and entity
/// names repeat in nearly every record of a store file, and making each one anew (validating
/// its UTF-8, building the String) would be a large part of reopening a store.
///
/// A direct-mapped table of 64 slots, picked from the length and the first and last bytes;
/// a miss makes the string and replaces the slot. A disabled cache (``init()``) makes every
/// string anew.
struct KeyCache {
    /// The longest string kept: keys are short, and comparing long ones would cost more than
    /// it saves.
    static let maxLength = 32
    private static let slotCount = 64

    private var slots: [String]

    /// A disabled cache: every lookup makes a new string.
    init() { slots = [] }

    /// A cache that keeps what it makes.
    static func enabled() -> KeyCache {
        var cache = KeyCache()
        cache.slots = Array(repeating: "", count: slotCount)
        return cache
    }

    /// The string of `bytes` (UTF-8, invalid sequences repaired as `String(decoding:as:)` does).
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let n = bytes.count
        guard !slots.isEmpty, n > 0, n <= KeyCache.maxLength, let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let slot = (n &* 31 &+ Int(base[0]) &* 7 &+ Int(base[n - 1])) & (KeyCache.slotCount - 1)
        var cached = slots[slot]
        // Byte-equal UTF-8 is the same string, so the cached one can stand for the bytes; a
        // repaired (invalid) sequence never matches, as its bytes differ from the input's.
        let hit = cached.withUTF8 { c in
            guard c.count == n, let start = c.baseAddress else { return false }
            return memcmp(start, base, n) == 0
        }
        if hit { return cached }
        let made = String(decoding: bytes, as: UTF8.self)
        slots[slot] = made
        return made
    }
}
