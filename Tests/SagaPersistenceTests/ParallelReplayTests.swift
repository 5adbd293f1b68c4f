import SagaCore
import SagaTestSupport
import Testing

@testable import SagaPersistence

/// A log segment replayed with its decoding on a second thread (what opening does for
/// segments of 1 MiB or more) must give exactly what the replay on one thread gives: the same
/// elements, valid end and last record, or the same error at the same offset, whatever the
/// damage and wherever it falls among the batches.
@Suite("Log replay decoded ahead on a second thread")
struct ParallelReplayTests {
    /// Enough records for several of the decoding thread's batches.
    static let count = 3 * DecodeQueue.batchSize + 123

    /// A segment's bytes: its header, then one frame per payload, numbered from 1.
    static func segment(_ payloads: [(type: UInt8, payload: [UInt8])]) -> [UInt8] {
        let header = FileHeader(magic: StoreFormat.logMagic, epoch: 0x5EED, baseSequence: 0)
        var out = BinaryWriter(capacity: 1 << 16)
        out.bytes.append(contentsOf: header.encoded())
        for (i, (type, payload)) in payloads.enumerated() {
            payload.withUnsafeBytes {
                Frame.append(
                    into: &out, type: type, sequence: UInt64(i + 1), payload: $0, seed: header.frameSeed)
            }
        }
        return out.bytes
    }

    /// A save's payload.
    static func save(_ entity: String, _ element: Value) -> (type: UInt8, payload: [UInt8]) {
        var w = BinaryWriter(capacity: 64)
        w.string(entity)
        try? w.write(element)
        return (StoreFormat.save, w.bytes)
    }

    /// A delete's payload.
    static func delete(_ entity: String, _ id: Value) -> (type: UInt8, payload: [UInt8]) {
        var w = BinaryWriter(capacity: 32)
        w.string(entity)
        try? w.write(id)
        return (StoreFormat.delete, w.bytes)
    }

    /// Saves over three entities, interleaved, with replacements and deletes.
    static func mixed() -> [(type: UInt8, payload: [UInt8])] {
        (0..<count).map { i in
            let entity = ["items", "people", "a-much-longer-entity-name-than-keys-are"][i % 3]
            if i % 7 == 6 { return delete(entity, .int(i / 2)) }
            return save(entity, ["id": .int(i % 5000), "name": .string("item \(i)"), "n": .int(i), "ok": true])
        }
    }

    /// What one replay gave: the result and the index, or the error.
    enum Outcome: Equatable {
        case replayed(validEnd: Int, last: UInt64, entities: [EntityName: [Value: Value]])
        case failed(String)
    }

    static func replay(_ bytes: [UInt8], isLast: Bool = true, ahead: Bool) -> Outcome {
        var index = EntityIndex()
        do throws(StoreError) {
            let (_, validEnd, last) = try withBytes(bytes) { (b) throws(StoreError) in
                try LogReplay.replay(b, path: "log", base: 0, isLast: isLast, into: &index, decodeAhead: ahead)
            }
            return .replayed(validEnd: validEnd, last: last, entities: index.entities)
        } catch {
            return .failed("\(error.code) \(error)")
        }
    }

    /// Replays both ways, checks they agree, and returns the outcome.
    @discardableResult
    static func agree(
        _ bytes: [UInt8], isLast: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Outcome {
        let inline = replay(bytes, isLast: isLast, ahead: false)
        let ahead = replay(bytes, isLast: isLast, ahead: true)
        #expect(inline == ahead, sourceLocation: sourceLocation)
        return inline
    }

    /// The offset of record `i` (0-based) of a segment.
    static func offset(of i: Int, in bytes: [UInt8]) -> Int {
        var p = StoreFormat.headerSize
        for _ in 0..<i {
            let length = Int(bytes[p]) | Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]) << 16 | Int(bytes[p + 3]) << 24
            p += 8 + length
        }
        return p
    }

    @Test func anIntactSegmentGivesTheSameElements() throws {
        let bytes = Self.segment(Self.mixed())
        guard case .replayed(let end, let last, let entities) = Self.agree(bytes) else {
            Issue.record("an intact segment failed")
            return
        }
        #expect(end == bytes.count && last == UInt64(Self.count))
        #expect(entities.count == 3 && entities.values.allSatisfy { !$0.isEmpty })
        // What the store's own index does with the same writes, one by one.
        var expected = EntityIndex()
        for (i, (type, _)) in Self.mixed().enumerated() {
            let entity = ["items", "people", "a-much-longer-entity-name-than-keys-are"][i % 3]
            if type == StoreFormat.delete {
                expected.delete(entity: entity, id: .int(i / 2))
            } else {
                let element: Value = ["id": .int(i % 5000), "name": .string("item \(i)"), "n": .int(i), "ok": true]
                expected.save(entity: entity, id: .int(i % 5000), element: element)
            }
        }
        #expect(entities == expected.entities)
    }

    @Test func aTornTailIsCutTheSameWayAtEveryByteOfTheLastRecord() {
        let bytes = Self.segment(Self.mixed())
        let lastStart = Self.offset(of: Self.count - 1, in: bytes)
        for cut in lastStart..<bytes.count {
            let outcome = Self.agree(Array(bytes[..<cut]))
            guard case .replayed(let end, let last, _) = outcome else {
                Issue.record("cut at \(cut): \(outcome)")
                continue
            }
            #expect(end == lastStart && last == UInt64(Self.count - 1), "cut at \(cut)")
        }
        // Not the newest segment: the same refusal both ways.
        guard case .failed = Self.agree(Array(bytes.dropLast(3)), isLast: false) else {
            Issue.record("an older segment's torn tail was accepted")
            return
        }
    }

    @Test(arguments: ["garbage", "zeros"])
    func aBadTailIsDroppedTheSameWay(_ kind: String) {
        var bytes = Self.segment(Self.mixed())
        let end = bytes.count
        var rng = SplitMix64(seed: 7)
        bytes +=
            kind == "zeros"
            ? [UInt8](repeating: 0, count: 4096) : (0..<999).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        #expect(Self.agree(bytes) == Self.replay(Array(bytes[..<end]), ahead: false).withValidEnd(end))
    }

    /// Damage at a record in the middle of a batch, and at the first record of a later one.
    @Test(arguments: [1_000, DecodeQueue.batchSize * 2])
    func damageInTheMiddleFailsTheSameWay(_ record: Int) {
        var payloads = Self.mixed()
        let bytes = Self.segment(payloads)
        let at = Self.offset(of: record, in: bytes)

        // A flipped byte followed by valid records: refused.
        var flipped = bytes
        flipped[at + 20] ^= 0x40
        #expect(Self.agree(flipped).failure?.contains("at offset \(at)") == true)

        // A valid frame that does not decode, or holds no id, or skips a sequence number.
        payloads[record] = (StoreFormat.save, [5, 0x69, 0x74, 0x65, 0x6D, 0x73, 0xFF])
        #expect(Self.agree(Self.segment(payloads)).failure?.contains("cannot be decoded") == true)
        payloads[record] = Self.save("items", ["name": "no id"])
        #expect(Self.agree(Self.segment(payloads)).failure?.contains("without an id") == true)
        var skipping = Self.mixed()
        skipping.remove(at: record)
        let header = FileHeader(magic: StoreFormat.logMagic, epoch: 0x5EED, baseSequence: 0)
        var out = BinaryWriter(capacity: 1 << 16)
        out.bytes.append(contentsOf: header.encoded())
        for (i, (type, payload)) in skipping.enumerated() {
            let sequence = UInt64(i < record ? i + 1 : i + 2)
            payload.withUnsafeBytes {
                Frame.append(into: &out, type: type, sequence: sequence, payload: $0, seed: header.frameSeed)
            }
        }
        #expect(Self.agree(out.bytes).failure?.contains("skips from record \(record) to record \(record + 2)") == true)
    }

    /// A record whose keys are out of order (only a damaged or foreign file has one) is
    /// sorted on reading, and its id found as `ElementID.of` finds it.
    @Test func keysOutOfOrderAreSortedAndTheirIDFound() {
        // {name: "x", id: 99999} (an id no other record has), keys in the wrong order, by hand.
        var w = BinaryWriter(capacity: 64)
        w.string("items")
        w.u8(ValueTag.record)
        w.varint(2)
        w.string("name")
        w.u8(ValueTag.string)
        w.string("x")
        w.string("id")
        w.u8(ValueTag.int)
        w.varint(199_998)  // zigzag
        var payloads = Self.mixed()
        payloads[5] = (StoreFormat.save, w.bytes)
        guard case .replayed(_, _, let entities) = Self.agree(Self.segment(payloads)) else {
            Issue.record("the segment failed")
            return
        }
        let element: Value = ["id": 99_999, "name": "x"]
        #expect(entities[EntityName("items")]?[Value.int(99_999)] == element)
    }

    @Test func theKeyCacheGivesWhatStringDecodingGives() {
        var cache = KeyCache.enabled()
        let inputs: [[UInt8]] = [
            Array("id".utf8), Array("name".utf8), Array("id".utf8), [0x69, 0xFF], [0x69, 0xFF], Array("é".utf8),
            Array("di".utf8), [], Array(String(repeating: "k", count: 40).utf8), Array("name".utf8),
        ]
        for bytes in inputs + inputs.reversed() {
            let made = bytes.withUnsafeBufferPointer { cache.string($0) }
            let plain = String(decoding: bytes, as: UTF8.self)
            #expect(made == plain && Array(made.utf8) == Array(plain.utf8), "\(bytes)")
        }
    }
}

extension ParallelReplayTests.Outcome {
    /// The error's text, for a failure.
    var failure: String? {
        if case .failed(let text) = self { return text }
        return nil
    }

    /// The same replay, its valid prefix ending at `end`.
    func withValidEnd(_ end: Int) -> Self {
        guard case .replayed(_, let last, let entities) = self else { return self }
        return .replayed(validEnd: end, last: last, entities: entities)
    }
}
