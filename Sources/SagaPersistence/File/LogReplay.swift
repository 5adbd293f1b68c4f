import Foundation
import SagaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replays a log segment into an index during recovery, telling a torn tail (dropped) from
/// corruption (refused).
///
/// The valid prefix is every frame from the header on whose length, type, sequence number
/// (the next one expected) and checksum hold. Where it stops, the rest is a torn tail only
/// if no valid frame starts anywhere after that point; otherwise bytes in the middle of the
/// log were damaged, and dropping what follows would silently lose acknowledged writes.
enum LogReplay {
    /// Segments at least this big are decoded on a second thread while the first applies the
    /// records (when there is more than one processor): the thread costs more than it saves
    /// on small ones.
    static let decodeAheadBytes = 1 << 20

    /// Replays `file` (the log segment at `path`) into `index`.
    ///
    /// - Parameters:
    ///   - file: The segment's bytes.
    ///   - path: The segment's path, for errors.
    ///   - base: The last sequence number before this segment (its header must say so).
    ///   - isLast: Whether this is the newest segment, the only one that may have a torn tail.
    ///   - index: The index the records are applied to.
    ///   - decodeAhead: Whether to decode on a second thread; nil decides by size and
    ///     processors. The result, and any error, is the same either way.
    /// - Returns: The segment's header, the end of the valid prefix (the file's size unless the
    ///   tail is torn) and the last sequence number replayed.
    /// - Throws: `.corrupt` with the path and the offset of the first bad byte; `.newerFormat`.
    static func replay(
        _ file: UnsafeRawBufferPointer, path: String, base: UInt64, isLast: Bool, into index: inout EntityIndex,
        decodeAhead: Bool? = nil
    ) throws(StoreError) -> (header: FileHeader, validEnd: Int, lastSequence: UInt64) {
        let header = try FileHeader.read(file, magic: StoreFormat.logMagic, path: path)
        guard header.baseSequence == base else {
            throw StoreError(
                .corrupt,
                "the log segment starts after record \(header.baseSequence), but the store before it ends at \(base)",
                path: path, offset: 0)
        }
        let seed = header.frameSeed
        var tables = ReplayTables(index, expectedSaves: countSaves(file))
        index = EntityIndex()
        defer { index = tables.finish() }
        let decoder = LogDecoder(file, seed: seed, base: base)
        let ahead =
            decodeAhead ?? (file.count >= decodeAheadBytes && ProcessInfo.processInfo.activeProcessorCount > 1)
        let stopped =
            ahead
            ? try applyDecodedAhead(decoder, path: path, to: &tables)
            : try applyInline(decoder, path: path, to: &tables)
        let last = stopped.last
        let position = stopped.position
        if case .skip(let sequence, let offset) = stopped.stop {
            throw StoreError(
                .corrupt, "the log skips from record \(last) to record \(sequence)", path: path, offset: offset)
        }
        if position == file.count { return (header, position, last) }
        // Something invalid at `position`: a torn tail, unless a valid frame follows.
        let types = StoreFormat.save...StoreFormat.delete
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

    /// Decodes and applies each record in turn, on this thread.
    private static func applyInline(
        _ decoder: LogDecoder, path: String, to tables: inout ReplayTables
    ) throws(StoreError) -> LogDecoder {
        var decoder = decoder
        while let entry = decoder.next() { try apply(entry, path: path, to: &tables) }
        return decoder
    }

    /// Applies the records as a second thread decodes them.
    private static func applyDecodedAhead(
        _ decoder: LogDecoder, path: String, to tables: inout ReplayTables
    ) throws(StoreError) -> LogDecoder {
        let queue = DecodeQueue(decoder)
        queue.start()
        do throws(StoreError) {
            while let batch = queue.pop() {
                // By index: `for entry in batch` would copy each entry.
                for i in batch.indices { try apply(batch[i], path: path, to: &tables) }
            }
        } catch {
            // The decoding thread reads the file, which the caller may free once we return.
            queue.cancel()
            throw error
        }
        return queue.stopped
    }

    /// Applies one decoded save or delete, or throws why it cannot be.
    private static func apply(
        _ entry: borrowing LogDecoder.Entry, path: String, to tables: inout ReplayTables
    ) throws(StoreError) {
        switch entry.failure {
        case .undecodable?:
            throw StoreError(
                .corrupt, "the log holds a record that cannot be decoded", path: path, offset: entry.offset)
        case .noID?:
            throw StoreError(.corrupt, "the log holds an element without an id", path: path, offset: entry.offset)
        case nil:
            break
        }
        if entry.type == StoreFormat.save {
            tables.save(entity: entry.entity, id: entry.id, element: entry.value)
        } else {
            tables.delete(entity: entry.entity, id: entry.value)
        }
    }

    /// How many save records of each entity the segment holds, at most: a quick walk from
    /// frame to frame by their lengths (no checksums, no decoding), so that the replay can
    /// size each table once.
    ///
    /// Only a hint: it stops at the first frame that does not look like one, and counts at
    /// most 16 entities.
    static func countSaves(_ file: UnsafeRawBufferPointer) -> [String: Int] {
        var names: [UnsafeRawBufferPointer] = []
        var counts: [Int] = []
        var last = -1
        var position = StoreFormat.headerSize
        let fixed = 1 + 8
        while file.count - position >= Frame.prefixSize + fixed {
            let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
            let body = position + Frame.prefixSize
            guard length >= fixed, length <= StoreFormat.maxFrameBody, length <= file.count - body else { break }
            let type = file[body]
            guard type == StoreFormat.save || type == StoreFormat.delete else { break }
            position = body + length
            guard type == StoreFormat.save else { continue }
            var reader = BinaryReader(UnsafeRawBufferPointer(rebasing: file[..<position]), at: body + fixed)
            guard let n = try? reader.count() else { continue }
            let name = UnsafeRawBufferPointer(rebasing: file[reader.position..<(reader.position + n)])
            if last < 0 || !same(name, names[last]) {
                guard let found = names.firstIndex(where: { same(name, $0) }) else {
                    guard names.count < 16 else { continue }
                    names.append(name)
                    counts.append(0)
                    last = names.count - 1
                    counts[last] += 1
                    continue
                }
                last = found
            }
            counts[last] += 1
        }
        var result: [String: Int] = [:]
        for (name, count) in zip(names, counts) {
            result[String(decoding: name, as: UTF8.self), default: 0] += count
        }
        return result
    }

    private static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    }
}
