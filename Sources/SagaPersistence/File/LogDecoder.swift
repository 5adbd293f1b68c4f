import SagaCore

/// Walks a log segment's frames in order and decodes each: everything a replay does to a
/// record except applying it, so that it can run on another thread (``LogReplay``) while
/// the index is built, or on the same one; both see the same records and the same damage.
struct LogDecoder {
    /// One decoded frame.
    struct Entry {
        /// ``StoreFormat/save`` or ``StoreFormat/delete``.
        var type: UInt8
        /// Where the frame starts (for errors).
        var offset: Int
        var entity: String
        /// The element saved, or the id deleted.
        var value: Value
        /// A save's checked id.
        var id: Value
        /// Why the frame cannot be applied; nil when it can.
        var failure: Failure?
    }

    /// Why a frame that passed its checksum cannot be applied.
    enum Failure {
        case undecodable
        case noID
    }

    /// Why the walk stopped.
    enum Stop {
        /// No valid frame at ``position``: the end of the file, or damage.
        case end
        /// A valid frame whose sequence number is not the next one.
        case skip(sequence: UInt64, offset: Int)
    }

    let file: UnsafeRawBufferPointer
    let seed: UInt32
    /// Where the next frame starts.
    private(set) var position = StoreFormat.headerSize
    /// The sequence number of the last frame decoded.
    private(set) var last: UInt64
    /// Why ``next()`` returned nil.
    private(set) var stop = Stop.end
    private var keys = KeyCache.enabled()

    init(_ file: UnsafeRawBufferPointer, seed: UInt32, base: UInt64) {
        self.file = file
        self.seed = seed
        self.last = base
    }

    /// The next frame, decoded; nil at the end or at damage (see ``stop``).
    ///
    /// After nil, or a record with a failure, the replay stops: the caller must not ask again.
    mutating func next() -> Entry? {
        guard position < file.count,
            let frame = Frame.read(
                file, at: position, seed: seed, hasSequence: true, types: StoreFormat.save...StoreFormat.delete,
                minimumSequence: last + 1)
        else {
            stop = .end
            return nil
        }
        guard frame.sequence == last + 1 else {
            stop = .skip(sequence: frame.sequence, offset: position)
            return nil
        }
        let entry = decode(frame)
        last = frame.sequence
        position = frame.next
        return entry
    }

    private mutating func decode(_ frame: Frame) -> Entry {
        var reader = BinaryReader(
            UnsafeRawBufferPointer(rebasing: file[..<frame.payload.upperBound]),
            at: frame.payload.lowerBound)
        guard let entity = try? reader.string(&keys), let (value, id) = try? reader.element(keys: &keys),
            reader.position == frame.payload.upperBound
        else {
            return Entry(
                type: frame.type, offset: position, entity: "", value: .null, id: .null, failure: .undecodable)
        }
        guard frame.type == StoreFormat.save else {
            return Entry(type: frame.type, offset: position, entity: entity, value: value, id: .null, failure: nil)
        }
        // The id the decoder saw is the one ElementID.of would find; without it, ask.
        let checked = if let id { try? ElementID.check(id) } else { try? ElementID.of(value) }
        guard let checked else {
            return Entry(type: frame.type, offset: position, entity: "", value: .null, id: .null, failure: .noID)
        }
        return Entry(type: frame.type, offset: position, entity: entity, value: value, id: checked, failure: nil)
    }
}

extension LogDecoder {
    /// Every valid, decodable save or delete of a damaged segment, in file order, with its
    /// sequence number, whatever comes between them: each offset after the header is tried
    /// for a frame whose checksum holds (``FileStore/salvage(directory:options:)``).
    ///
    /// - Returns: the records, and how many bytes were passed over.
    static func salvage(_ file: UnsafeRawBufferPointer, seed: UInt32) -> (records: [(Entry, UInt64)], skipped: Int) {
        var decoder = LogDecoder(file, seed: seed, base: 0)
        var records: [(Entry, UInt64)] = []
        var skipped = 0
        var offset = StoreFormat.headerSize
        while offset < file.count {
            guard
                let frame = Frame.read(
                    file, at: offset, seed: seed, hasSequence: true, types: StoreFormat.save...StoreFormat.delete)
            else {
                offset += 1
                skipped += 1
                continue
            }
            let entry = decoder.decode(frame)
            if entry.failure == nil {
                records.append((entry, frame.sequence))
            } else {
                skipped += frame.next - offset
            }
            offset = frame.next
        }
        return (records, skipped)
    }
}
