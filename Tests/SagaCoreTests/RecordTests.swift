import SagaCore
import Testing

/// A record reads, adds and removes keys the same way whatever its size (small records are
/// scanned, larger ones searched).
@Suite struct RecordTests {
    /// Records of 0 to 20 keys, `k0`, `k1`, … holding their index.
    static let sizes = Array(0...20)

    static func record(of size: Int) -> Record {
        Record((0..<size).map { ("k\($0)", Value.int($0)) })
    }

    @Test(arguments: sizes) func anAbsentKeyReadsAsNil(size: Int) {
        let record = Self.record(of: size)
        #expect(record["missing"] == nil)
        #expect(record["k\(size)"] == nil)
        for i in 0..<size { #expect(record["k\(i)"] == .int(i)) }
    }

    @Test(arguments: sizes) func aKeyHoldingNullIsPresent(size: Int) {
        var record = Self.record(of: size)
        record["nothing"] = .null
        #expect(record["nothing"] == .some(.null))
        #expect(record.count == size + 1)
    }

    /// `string(forKey:)` reads what the subscript reads, when it is a string.
    @Test(arguments: sizes) func aStringIsReadInPlaceAtAnySize(size: Int) {
        var record = Self.record(of: size)
        record["type"] = "ping"
        record["count"] = .int(3)
        #expect(record.string(forKey: "type") == "ping")
        #expect(record.string(forKey: "count") == nil)
        #expect(record.string(forKey: "missing") == nil)
        for i in 0..<size { #expect(record.string(forKey: "k\(i)") == nil) }
    }

    @Test(arguments: sizes) func settingNilRemovesTheKey(size: Int) {
        var record = Self.record(of: size)
        for i in 0..<size { record["k\(i)"] = nil }
        #expect(record.isEmpty)
    }

    /// `Record(unsortedEntries:)` gives the record that setting the same keys in the same
    /// order gives: sorted keys, and of a repeated key the later value.
    @Test(arguments: sizes) func unsortedEntriesMakeTheRecordThatSettingThemMakes(size: Int) {
        // A fixed shuffle of the keys, with every third key repeated later with a new value.
        var pairs: [(String, Value)] = (0..<size).map { ("k\(($0 * 7) % max(size, 1))", Value.int($0)) }
        for i in stride(from: 0, to: size, by: 3) { pairs.append(("k\(i)", .string("again \(i)"))) }
        var expected = Record()
        for (key, value) in pairs { expected[key] = value }
        let made = Record(unsortedEntries: pairs.map { Record.Entry(key: $0.0, value: $0.1) })
        #expect(made == expected)
        #expect(made.keys == expected.keys)
        #expect(made.keys == made.keys.sorted { Record.keyPrecedes($0, $1) })
    }

    /// Keys order by their UTF-8 bytes, a prefix first, whatever their storage: small strings
    /// (up to 15 bytes, compared through their bits), large ones, and one of each, with NUL
    /// bytes, non-ASCII bytes, and differences in either word of a small string.
    @Test func keysOrderByTheirBytes() {
        var keys = [
            "", "a", "b", "a\0", "a\0b", "a\0\0", "ab", "abc", "type", "types", "typf", "by", "\u{7F}", "é", "zé",
            "日本", "日", "éa", "12345678", "123456789", "12345678a", "123456789abcdef", "123456789abcdeg",
            "123456789abcde", "123456789abcdef0", "123456789abcdef1", "x123456789abcdef0", "f500", "f499", "f5000",
        ]
        // The same bytes as a large string in other storage, and a string made at run time.
        keys.append(String(decoding: Array("123456789abcdef0".utf8), as: UTF8.self))
        keys.append(["ty", "pe"].joined())
        // Short bytes in a large string's storage: equal to the small "type", bits unequal.
        var large = String()
        large.reserveCapacity(64)
        large += "type"
        keys.append(large)
        for a in keys {
            for b in keys {
                let expected =
                    Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
                    ? -1 : (Array(a.utf8) == Array(b.utf8) ? 0 : 1)
                #expect(Record.compareKeys(a, b).signum() == expected, "\(a.debugDescription) \(b.debugDescription)")
                #expect(Record.sameKey(a, b) == (expected == 0))
            }
        }
    }
}
