#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opening a store: read the newest snapshot, replay the log segments after it (both in
/// ``StoreScan``), then cut a torn tail (keeping its bytes in a file of their own unless they
/// are all zeros) and remove leftovers of an interrupted snapshot.
///
/// Nothing is changed on disk until every file has been read and found sound, so a `.corrupt`
/// store is left as it was.
enum Recovery {
    static func run(_ dir: StoreDirectory) throws(StoreError) -> LogWriter.Recovered {
        let scan = StoreScan.run(dir)
        if let problem = scan.problem { throw problem }
        guard let log = scan.newestLog else { return try createFirstLog(dir, leftovers: scan.leftovers) }
        // No log tells a torn write from damage to its last record, or from a log cut short:
        // the bytes are kept before they are cut, so that an acknowledged write is never gone.
        if let keeper = scan.tornTailKeeper {
            _ = try dir.createAtomically(keeper, keepOpen: false) { (fd) throws(StoreError) in
                try dir.writeAll(fd, scan.tornContent, name: keeper)
            }
        }
        // The scan read every file under our exclusive lock: nothing changed since.
        // Not O_APPEND: records overwrite the zeros written ahead of them (see
        // LogWriter+Preallocation); the offset is put at the end of the valid records.
        let fd = try dir.open(log.name, O_RDWR)
        do {
            if log.validEnd < log.size {
                try dir.fs.ftruncate(fd, Int64(log.validEnd))
                try dir.fs.fsync(fd)
            }
            _ = try dir.fs.seekToEnd(fd)
        } catch {
            dir.fs.close(fd)
            throw error.storeError(path: dir.path(of: log.name))
        }
        do {
            try removeLeftovers(dir, scan.leftovers)
        } catch {
            dir.fs.close(fd)
            throw error
        }
        return LogWriter.Recovered(
            index: scan.index, logFD: fd, logHeader: log.header, generation: log.generation,
            nextSequence: scan.lastSequence + 1, logBytes: log.validEnd - StoreFormat.headerSize,
            tornTailBytes: log.size - log.validEnd, tornTailKeeper: scan.tornTailKeeper.map(dir.path(of:)))
    }

    /// A new store: its first log segment, empty.
    private static func createFirstLog(
        _ dir: StoreDirectory, leftovers: [String]
    ) throws(StoreError)
        -> LogWriter.Recovered
    {
        try removeLeftovers(dir, leftovers)
        let header = FileHeader(magic: StoreFormat.logMagic, epoch: UInt64.random(in: .min ... .max), baseSequence: 0)
        let name = StoreFormat.logName(1)
        let fd = try dir.createAtomically(name, keepOpen: true) { (fd) throws(StoreError) in
            try dir.writeAll(fd, header.encoded(), name: name)
        }
        return LogWriter.Recovered(
            index: EntityIndex(), logFD: fd, logHeader: header, generation: 1, nextSequence: 1, logBytes: 0,
            tornTailBytes: 0, tornTailKeeper: nil)
    }

    private static func removeLeftovers(_ dir: StoreDirectory, _ names: [String]) throws(StoreError) {
        if names.isEmpty { return }
        for name in names { try dir.remove(name) }
        try dir.sync()
    }
}
