#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The log segment grows ahead of its records, in zero-filled chunks, so that a commit
/// overwrites bytes that already exist instead of appending: `fdatasync` then has no file
/// size to make durable, only the data. On ext4 that makes acknowledged saves in a loop much
/// quicker (the same gain SQLite's WAL gets by reusing its file). The zeros are real writes, not `fallocate`: unwritten extents would
/// need their own metadata update on the first write into them.
///
/// Recovery already treats whatever follows the last valid record of the newest segment as a
/// torn tail and cuts it; a clean close trims the zeros, so a closed store holds only records.
extension LogWriter {
    /// Makes sure `count` more bytes fit before ``allocatedEnd``, writing zeros past the end
    /// of the file through a second descriptor (the log's own offset stays where the next
    /// record goes).
    ///
    /// Best effort: if it fails (a full disk), the record is simply appended, and its own
    /// write reports the problem.
    func preallocate(for count: Int) {
        let end = StoreFormat.headerSize + logBytes + count
        guard preallocation > 0, end > allocatedEnd else { return }
        let name = logName
        // Set before trying: a write that fails half-way leaves zeros too.
        mayHaveZeros = true
        guard let fd = try? dir.open(name, O_WRONLY) else { return }
        defer { dir.fs.close(fd) }
        guard let size = try? dir.fs.seekToEnd(fd) else { return }
        let target = max(end, Int(size)) + preallocation
        let zeros = [UInt8](repeating: 0, count: target - Int(size))
        guard (try? dir.writeAll(fd, zeros, name: name)) != nil else { return }
        allocatedEnd = target
    }

    /// Cuts the zeros after the last record and syncs that, so that only a crash leaves any,
    /// and only in the newest segment (recovery refuses an older segment that does not end
    /// with a whole record).
    ///
    /// Before a segment is retired this must succeed, like any other step of a snapshot; on
    /// close it is best effort.
    ///
    /// It goes by ``mayHaveZeros``, not ``allocatedEnd``: a preallocation that failed half-way
    /// (a full disk) left zeros that ``allocatedEnd`` does not count (the crash harness found
    /// an older segment ending in them).
    func trimPreallocation() throws(StoreError) {
        guard mayHaveZeros else { return }
        let end = StoreFormat.headerSize + logBytes
        do {
            try dir.fs.ftruncate(logFD, Int64(end))
            try dir.fs.fdatasync(logFD)
        } catch {
            throw error.storeError(path: dir.path(of: StoreFormat.logName(generation)))
        }
        allocatedEnd = end
        mayHaveZeros = false
    }
}
