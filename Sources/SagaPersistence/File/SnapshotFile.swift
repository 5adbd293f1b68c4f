import SagaCore

/// Writes and reads snapshots: every element of every entity, after a header (see
/// ``StoreFormat``).
///
/// A snapshot is written to a temporary file, synced and renamed into place, so one that
/// exists is complete; any damage in it is corruption.
enum SnapshotFile {
    /// The bytes buffered before each write call.
    private static let chunk = 1 << 20

    /// Writes `index` as a snapshot to `fd`, which is open for appending.
    static func write(
        _ index: EntityIndex, header: FileHeader, to fd: Int32, name: String, in dir: StoreDirectory
    )
        throws(StoreError)
    {
        var out = BinaryWriter(capacity: chunk + 4096)
        out.bytes.append(contentsOf: header.encoded())
        let seed = header.frameSeed
        var payload = BinaryWriter(capacity: 256)
        var total = 0
        for entity in index.entities.keys.sorted(by: { Record.keyPrecedes($0.text, $1.text) }) {
            guard let table = index.entities[entity] else { continue }
            payload.bytes.removeAll(keepingCapacity: true)
            payload.string(entity.text)
            payload.varint(UInt64(table.count))
            payload.bytes.withUnsafeBytes {
                Frame.append(into: &out, type: StoreFormat.entity, sequence: nil, payload: $0, seed: seed)
            }
            for element in table.values {
                payload.bytes.removeAll(keepingCapacity: true)
                try payload.write(element)
                payload.bytes.withUnsafeBytes {
                    Frame.append(into: &out, type: StoreFormat.element, sequence: nil, payload: $0, seed: seed)
                }
                total += 1
                if out.bytes.count >= chunk {
                    try dir.writeAll(fd, out.bytes, name: name)
                    out.bytes.removeAll(keepingCapacity: true)
                }
            }
        }
        payload.bytes.removeAll(keepingCapacity: true)
        payload.varint(UInt64(total))
        payload.bytes.withUnsafeBytes {
            Frame.append(into: &out, type: StoreFormat.end, sequence: nil, payload: $0, seed: seed)
        }
        try dir.writeAll(fd, out.bytes, name: name)
    }

    /// Reads a whole snapshot file.
    ///
    /// - Returns: Its header (whose base sequence is the last log record it covers) and its elements.
    /// - Throws: `.corrupt` naming the file and offset of the first bad frame; `.newerFormat`.
    static func read(_ file: UnsafeRawBufferPointer, path: String) throws(StoreError) -> (FileHeader, EntityIndex) {
        let header = try FileHeader.read(file, magic: StoreFormat.snapshotMagic, path: path)
        let seed = header.frameSeed
        var entities: [EntityName: [Value: Value]] = [:]
        var entity: EntityName?
        var table: [Value: Value] = [:]
        var total = 0
        var position = StoreFormat.headerSize
        var expected: UInt64 = 0
        func corrupt(_ what: String, _ offset: Int) -> StoreError {
            StoreError(.corrupt, "the snapshot is damaged: \(what)", path: path, offset: offset)
        }
        // Ends the current entity: it must hold as many elements as its record said.
        func finish(at offset: Int) throws(StoreError) {
            guard let name = entity else { return }
            guard UInt64(table.count) == expected else {
                throw corrupt("entity '\(name.text)' holds \(table.count) elements, not \(expected)", offset)
            }
            entities[name] = table
            entity = nil
        }
        while true {
            guard
                let frame = Frame.read(
                    file, at: position, seed: seed, hasSequence: false, types: StoreFormat.entity...StoreFormat.end)
            else {
                throw corrupt(position >= file.count ? "it ends before its end marker" : "a bad record", position)
            }
            var reader = BinaryReader(
                UnsafeRawBufferPointer(rebasing: file[..<frame.payload.upperBound]),
                at: frame.payload.lowerBound)
            switch frame.type {
            case StoreFormat.entity:
                try finish(at: position)
                guard let name = try? reader.string(), let count = try? reader.varint() else {
                    throw corrupt("an undecodable record", position)
                }
                guard entities[EntityName(name)] == nil else {
                    throw corrupt("entity '\(name)' appears twice", position)
                }
                entity = EntityName(name)
                expected = count
                table = [:]
                table.reserveCapacity(Int(min(count, 1 << 26)))
            case StoreFormat.element:
                guard entity != nil else { throw corrupt("an element before any entity", position) }
                guard let element = try? reader.value() else { throw corrupt("an undecodable record", position) }
                guard let id = try? ElementID.of(element) else { throw corrupt("an element without an id", position) }
                guard table.updateValue(element, forKey: id) == nil else {
                    throw corrupt("two elements with the id \(id.canonicalJSON)", position)
                }
                total += 1
            default:
                try finish(at: position)
                guard let count = try? reader.varint() else { throw corrupt("an undecodable record", position) }
                guard count == UInt64(total) else {
                    throw corrupt("it holds \(total) elements, not \(count)", position)
                }
                guard frame.next == file.count else { throw corrupt("bytes after its end marker", frame.next) }
                return (header, EntityIndex(entities: entities))
            }
            guard reader.position == frame.payload.upperBound else { throw corrupt("an undecodable record", position) }
            position = frame.next
        }
    }
}
