import SagaCore

extension SnapshotFile {
    /// What ``salvage(_:path:)`` keeps of a damaged snapshot.
    struct Salvaged {
        /// The last log record the snapshot covers, as its header says (0 when the header is
        /// damaged).
        var baseSequence: UInt64
        /// The elements whose records, and whose entity's record, are whole.
        var elements: EntityIndex
        /// The bytes that held no whole record.
        var skippedBytes: Int
        /// The whole element records passed over because their entity is not known for sure.
        var orphans: Int
        /// The elements the snapshot says it holds (its end record's total, or its whole
        /// entity records' counts when that is lost) that are neither kept nor orphans: their
        /// records were damaged or cut off.
        var lost = 0
    }

    /// Reads every whole record of a damaged snapshot, passing over the damage between.
    ///
    /// An element belongs to the last entity record before it. Where damage lies between
    /// the two, that entity is sure only if the damage is one record that says it is an
    /// element (its length intact, its checksum not) and the entity still lacks elements;
    /// otherwise the elements up to the next whole entity record are passed over, rather than
    /// put in an entity that may not be theirs.
    ///
    /// - Throws: `.newerFormat` for a snapshot of a newer format: nothing is rebuilt from
    ///   records this version cannot read.
    static func salvage(_ file: UnsafeRawBufferPointer, path: String) throws(StoreError) -> Salvaged {
        var seed: UInt32
        var base: UInt64 = 0
        do {
            let header = try FileHeader.read(file, magic: StoreFormat.snapshotMagic, path: path)
            seed = header.frameSeed
            base = header.baseSequence
        } catch  where error.code == .newerFormat {
            throw error
        } catch {
            seed = FileHeader.seed(fromDamaged: file, magic: StoreFormat.snapshotMagic) ?? 0
        }
        var result = Salvaged(baseSequence: base, elements: EntityIndex(), skippedBytes: 0, orphans: 0)
        // The entity the next elements belong to, how many it said it holds, and how many of
        // them have been read or lost.
        var entity: String?
        var expected: UInt64 = 0
        var counted: UInt64 = 0
        // What the whole entity records announce, and the end record's total, if it is whole.
        var announced: UInt64 = 0
        var total: UInt64?
        var kept = 0
        var offset = StoreFormat.headerSize
        // Where the damage being passed over began.
        var damagedFrom: Int?
        while offset < file.count {
            guard
                let frame = Frame.read(
                    file, at: offset, seed: seed, hasSequence: false, types: StoreFormat.entity...StoreFormat.end)
            else {
                if damagedFrom == nil { damagedFrom = offset }
                offset += 1
                result.skippedBytes += 1
                continue
            }
            if let start = damagedFrom {
                damagedFrom = nil
                // One element record, damaged: the entity goes on after it, if it still lacks one.
                if entity != nil, isOneElementRecord(file, from: start, to: offset), counted < expected {
                    counted += 1
                } else {
                    entity = nil
                }
            }
            var reader = BinaryReader(
                UnsafeRawBufferPointer(rebasing: file[..<frame.payload.upperBound]), at: frame.payload.lowerBound)
            switch frame.type {
            case StoreFormat.entity:
                if let name = try? reader.string(), let count = try? reader.varint() {
                    entity = name
                    expected = count
                    counted = 0
                    announced &+= count
                } else {
                    entity = nil
                    result.skippedBytes += frame.next - offset
                }
            case StoreFormat.element:
                if let name = entity, counted < expected, let element = try? reader.value(),
                    let id = try? ElementID.of(element)
                {
                    result.elements.save(entity: name, id: id, element: element)
                    counted += 1
                    kept += 1
                } else {
                    result.orphans += 1
                }
            default:
                if frame.type == StoreFormat.end, let count = try? reader.varint() { total = count }
                entity = nil
            }
            offset = frame.next
        }
        // With the total, orphans are among the elements it counts; without it, they belong to
        // no entity record that was read.
        let listed = Int(clamping: total ?? announced)
        result.lost = max(0, listed - kept - (total == nil ? 0 : result.orphans))
        return result
    }

    /// Whether the bytes from `start` to `end` are one element record: its length says it ends
    /// at `end`, and its type byte says it is an element.
    private static func isOneElementRecord(_ file: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        guard end - start > Frame.prefixSize else { return false }
        let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
        return start + Frame.prefixSize + length == end && file[start + Frame.prefixSize] == StoreFormat.element
    }
}
