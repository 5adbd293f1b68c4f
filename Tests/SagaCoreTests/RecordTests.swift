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
}
