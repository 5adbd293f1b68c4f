import SagaTestSupport
import Testing

@testable import SagaCore

/// A record of thousands of keys (normalized state: `state.users[id] = user`) keeps them in
/// sorted chunks, and reads, writes, compares and prints as a small one does.
@Suite struct LargeRecordTests {
    /// The chunks are sorted within and across, none is empty or over capacity, and a record
    /// is flat or chunked, never both.
    static func expectWellFormed(_ r: Record, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        if r.chunks.isEmpty {
            #expect(r.flat.count <= Record.flatCapacity, sourceLocation: sourceLocation)
        } else {
            #expect(r.flat.isEmpty, sourceLocation: sourceLocation)
            #expect(r.chunks.count >= 2, sourceLocation: sourceLocation)
            for chunk in r.chunks {
                #expect(!chunk.isEmpty && chunk.count <= Record.chunkCapacity, sourceLocation: sourceLocation)
            }
        }
        let keys = r.keys
        #expect(zip(keys, keys.dropFirst()).allSatisfy { Record.keyPrecedes($0, $1) }, sourceLocation: sourceLocation)
    }

    /// Keys `u0` … `u<n-1>` in a shuffled order.
    static func shuffledKeys(_ n: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<n).map { "u\($0)" }.shuffled(using: &random)
    }

    /// On this platform a small record's storage is the array's own word, so that writing a
    /// key goes through it in place (`Record.modifyFlat`); and a write through it leaves a
    /// copy made before as it was.
    @Test func aSmallRecordIsWrittenInPlaceThroughItsOwnWord() {
        #expect(Record.flatIsBareArray)
        var r: Record = ["a": 1, "b": 2]
        let before = r
        let identity = r.storageIdentity
        r["a"] = 3
        r.modifyValue(forKey: "b") { $0 = 4 }
        #expect(before == ["a": 1, "b": 2])
        #expect(r == ["a": 3, "b": 4])
        r["a"] = 5
        r.modifyValue(forKey: "b") { $0 = 6 }
        // Unshared now, the second writes go where the entries are: no copy.
        let written = r.storageIdentity
        r["a"] = 7
        #expect(r.storageIdentity == written && written != identity)
    }

    /// Adding 20,000 keys in random order splits the record into chunks, none of which holds
    /// more than its capacity: one sorted array would move half its entries for each new key.
    @Test func manyKeysAddedInRandomOrderAreKeptInBoundedChunks() {
        var r = Record()
        for (i, key) in Self.shuffledKeys(20_000, seed: 1).enumerated() { r[key] = .int(i) }
        #expect(r.count == 20_000)
        #expect(r.chunks.count > 20_000 / Record.chunkCapacity)
        Self.expectWellFormed(r)
        #expect(r == Record(sortedEntries: r.map { $0 }))
    }

    /// Random sets, removals, in-place updates and `insertIfAbsent` agree with a dictionary, as
    /// the record grows past the flat capacity, shrinks back to flat, and grows again.
    @Test(arguments: [UInt64(7), 8, 9])
    func readsAndWritesAgreeWithADictionary(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var r = Record()
        var model: [String: Int] = [:]
        for step in 0..<30_000 {
            // Grow for 12,000 steps, then mostly shrink, then grow again.
            let phase = step / 10_000
            let key = "k\(Int.random(in: 0..<3_000, using: &random))"
            let roll = Int.random(in: 0..<10, using: &random)
            switch (phase, roll) {
            case (1, 0..<7), (_, 0):
                r[key] = nil
                model[key] = nil
            case (_, 1):
                let added = r.insertIfAbsent(key, .int(step))
                #expect(added == (model[key] == nil))
                if added { model[key] = step }
            case (_, 2):
                r.modifyValue(forKey: key) { $0 = .int(step) }
                model[key] = step
            default:
                r[key] = .int(step)
                model[key] = step
            }
            if step % 1_000 == 0 { Self.expectWellFormed(r) }
            #expect(r[key] == model[key].map(Value.int))
        }
        Self.expectWellFormed(r)
        #expect(r.count == model.count)
        let expected = model.keys.sorted { Record.keyPrecedes($0, $1) }
        #expect(r.keys == expected)
        #expect(r.values == expected.compactMap { model[$0].map(Value.int) })
        for (key, value) in model {
            #expect(r[key] == .int(value))
            #expect(r.withValue(forKey: key) { $0 } == .int(value))
        }
        #expect(r["absent"] == nil)
    }

    /// A chunked record equals, hashes and prints as the flat record of the same entries,
    /// whichever way it was built.
    @Test func aChunkedRecordEqualsTheFlatRecordOfTheSameEntries() {
        var grown = Record()
        for key in Self.shuffledKeys(2_000, seed: 2) { grown[key] = .string(key) }
        // Removed down to a size a flat record holds, but still in chunks.
        for i in 200..<2_000 where i % 8 != 0 { grown["u\(i)"] = nil }
        Self.expectWellFormed(grown)
        let flat = Record(unsortedEntries: grown.map { $0 }.reversed())
        #expect(flat.chunks.isEmpty == (flat.count <= Record.flatCapacity))
        #expect(grown == flat && flat == grown)
        #expect(grown.hashValue == flat.hashValue)
        #expect(Value.record(grown).canonicalJSON == Value.record(flat).canonicalJSON)
        var other = grown
        other["u0"] = .int(0)
        #expect(other != grown)
    }

    /// Writing to a copy of a large record leaves the original as it was.
    @Test func aCopyIsWrittenApartFromTheOriginal() {
        var original = Record()
        for key in Self.shuffledKeys(5_000, seed: 3) { original[key] = .int(1) }
        let before = original.map { $0 }
        var copy = original
        copy["u42"] = .int(2)
        copy["u43"] = nil
        copy["new"] = .null
        copy.modifyValue(forKey: "u44") { $0 = .int(3) }
        #expect(original.map(\.key) == before.map(\.key))
        #expect(original.map(\.value) == before.map(\.value))
        #expect(original["u42"] == .int(1) && original["u43"] == .int(1) && original["new"] == nil)
        #expect(copy["u42"] == .int(2) && copy["u43"] == nil && copy["new"] == .null && copy["u44"] == .int(3))
    }

    /// Merging large records keeps every key once, the right-hand record's value winning.
    @Test func mergingLargeRecordsLetsTheRightHandWin() {
        let left = Record((0..<3_000).map { ("k\($0)", Value.int(0)) })
        let right = Record((2_000..<5_000).map { ("k\($0)", Value.int(1)) })
        let merged = left.merging(right)
        Self.expectWellFormed(merged)
        #expect(merged.count == 5_000)
        #expect(merged["k0"] == .int(0) && merged["k1999"] == .int(0))
        #expect(merged["k2000"] == .int(1) && merged["k4999"] == .int(1))
    }

    /// Many entries in any order, duplicates among them, make the record that setting them one
    /// by one makes: the later of two duplicates wins.
    @Test func manyUnsortedEntriesWithDuplicatesLetTheLaterWin() {
        var random = SplitMix64(seed: 4)
        let pairs = (0..<3_000).map { i in ("k\(Int.random(in: 0..<1_000, using: &random))", Value.int(i)) }
        var expected = Record()
        for (k, v) in pairs { expected[k] = v }
        let made = Record(unsortedEntries: pairs.map { Record.Entry(key: $0.0, value: $0.1) })
        Self.expectWellFormed(made)
        #expect(made == expected)
        #expect(made.keys == expected.keys)
    }
}
