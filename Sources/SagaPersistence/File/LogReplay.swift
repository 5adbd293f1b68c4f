import SagaCore

/// Replays a log segment into an index during recovery, telling a torn tail (dropped) from
/// corruption (refused).
///
/// The valid prefix is every frame from the header on whose length, type, sequence number
/// (the next one expected) and checksum hold. Where it stops, the rest is a torn tail only
/// if no valid frame starts anywhere after that point; otherwise bytes in the middle of the
/// log were damaged, and dropping what follows would silently lose acknowledged writes.
enum LogReplay {
    /// Replays `file` (the log segment at `path`) into `index`.
    ///
    /// - Parameters:
    ///   - base: The last sequence number before this segment (its header must say so).
    ///   - isLast: Whether this is the newest segment, the only one that may have a torn tail.
    /// - Returns: The segment's header, the end of the valid prefix (the file's size unless the tail is torn) and the
    ///   last sequence number replayed.
    /// - Throws: `.corrupt` with the path and the offset of the first bad byte; `.newerFormat`.
    static func replay(
        _ file: UnsafeRawBufferPointer, path: String, base: UInt64, isLast: Bool, into index: inout EntityIndex
    ) throws(StoreError) -> (header: FileHeader, validEnd: Int, lastSequence: UInt64) {
        let header = try FileHeader.read(file, magic: StoreFormat.logMagic, path: path)
        guard header.baseSequence == base else {
            throw StoreError(
                .corrupt,
                "the log segment starts after record \(header.baseSequence), but the store before it ends at \(base)",
                path: path, offset: 0)
        }
        let seed = header.frameSeed
        var last = base
        var position = StoreFormat.headerSize
        let types = StoreFormat.save...StoreFormat.delete
        while position < file.count,
            let frame = Frame.read(
                file, at: position, seed: seed, hasSequence: true, types: types, minimumSequence: last + 1)
        {
            guard frame.sequence == last + 1 else {
                throw StoreError(
                    .corrupt, "the log skips from record \(last) to record \(frame.sequence)", path: path,
                    offset: position)
            }
            try apply(frame, file, path: path, offset: position, to: &index)
            last = frame.sequence
            position = frame.next
        }
        if position == file.count { return (header, position, last) }
        // Something invalid at `position`: a torn tail, unless a valid frame follows.
        var probe = position + 1
        while probe < file.count {
            if Frame.read(file, at: probe, seed: seed, hasSequence: true, types: types, minimumSequence: last + 1)
                != nil
            {
                throw StoreError(
                    .corrupt, "the log is damaged: a bad record is followed by valid ones (refusing to drop them)",
                    path: path, offset: position)
            }
            probe += 1
        }
        guard isLast else {
            throw StoreError(
                .corrupt, "a log segment that is not the newest ends in an incomplete record", path: path,
                offset: position)
        }
        return (header, position, last)
    }

    /// Applies one save or delete frame.
    private static func apply(
        _ frame: Frame, _ file: UnsafeRawBufferPointer, path: String, offset: Int, to index: inout EntityIndex
    ) throws(StoreError) {
        var reader = BinaryReader(
            UnsafeRawBufferPointer(rebasing: file[..<frame.payload.upperBound]),
            at: frame.payload.lowerBound)
        guard let entity = try? reader.string(), let value = try? reader.value(),
            reader.position == frame.payload.upperBound
        else {
            throw StoreError(.corrupt, "the log holds a record that cannot be decoded", path: path, offset: offset)
        }
        if frame.type == StoreFormat.save {
            guard let id = try? ElementID.of(value) else {
                throw StoreError(.corrupt, "the log holds an element without an id", path: path, offset: offset)
            }
            index.save(entity: entity, id: id, element: value)
        } else {
            index.delete(entity: entity, id: value)
        }
    }
}
