#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opening a store: read the newest snapshot, replay the log segments after it, cut a torn
/// tail, and remove leftovers of an interrupted snapshot. Nothing is changed on disk until
/// every file has been read and found sound, so a `.corrupt` store is left as it was.
enum Recovery {
    static func run(_ dir: StoreDirectory) throws(StoreError) -> LogWriter.Recovered {
        var logs: [Int] = []
        var snapshots: [Int] = []
        var leftovers: [String] = []
        for name in try dir.list() {
            if name.hasSuffix(StoreFormat.temporarySuffix) {
                leftovers.append(name)
            } else if let (isLog, g) = StoreFormat.parse(name) {
                if isLog { logs.append(g) } else { snapshots.append(g) }
            }
        }
        let newest = snapshots.max() ?? 0
        var index = EntityIndex()
        var last: UInt64 = 0
        if newest > 0 {
            let name = StoreFormat.snapshotName(newest)
            let fd = try dir.open(name, O_RDONLY)
            defer { dir.fs.close(fd) }
            let bytes = try dir.readAll(fd, name: name)
            let header: FileHeader
            (header, index) = try withBytes(bytes) { (b) throws(StoreError) in
                try SnapshotFile.read(b, path: dir.path(of: name))
            }
            last = header.baseSequence
        }
        let live = logs.filter { $0 >= max(newest, 1) }.sorted()
        let first = max(newest, 1)
        for (i, g) in live.enumerated() where g != first + i {
            throw StoreError(
                .corrupt, "log segment \(StoreFormat.logName(first + i)) is missing", path: dir.path, offset: nil)
        }
        for g in logs where g < newest { leftovers.append(StoreFormat.logName(g)) }
        for g in snapshots where g < newest { leftovers.append(StoreFormat.snapshotName(g)) }

        guard let newestLog = live.last else {
            if newest > 0 {
                throw StoreError(
                    .corrupt, "log segment \(StoreFormat.logName(newest)) is missing", path: dir.path, offset: nil)
            }
            return try createFirstLog(dir, leftovers: leftovers)
        }
        var recovered: LogWriter.Recovered?
        for g in live {
            let name = StoreFormat.logName(g)
            let isLast = g == newestLog
            let fd = try dir.open(name, isLast ? (O_RDWR | O_APPEND) : O_RDONLY)
            var keep = false
            defer { if !keep { dir.fs.close(fd) } }
            let bytes = try dir.readAll(fd, name: name)
            let (header, validEnd, lastSequence) = try withBytes(bytes) { (b) throws(StoreError) in
                try LogReplay.replay(b, path: dir.path(of: name), base: last, isLast: isLast, into: &index)
            }
            last = lastSequence
            if isLast {
                keep = true
                recovered = LogWriter.Recovered(
                    index: index, logFD: fd, logHeader: header, generation: g, nextSequence: last + 1,
                    logBytes: validEnd - StoreFormat.headerSize)
                if validEnd < bytes.count {
                    do {
                        try dir.fs.ftruncate(fd, Int64(validEnd))
                        try dir.fs.fsync(fd)
                    } catch {
                        dir.fs.close(fd)
                        throw error.storeError(path: dir.path(of: name))
                    }
                }
            }
        }
        guard let recovered else { throw StoreError(.corrupt, "no log segment", path: dir.path) }
        do {
            try removeLeftovers(dir, leftovers)
        } catch {
            dir.fs.close(recovered.logFD)
            throw error
        }
        return recovered
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
            index: EntityIndex(), logFD: fd, logHeader: header, generation: 1, nextSequence: 1, logBytes: 0)
    }

    private static func removeLeftovers(_ dir: StoreDirectory, _ names: [String]) throws(StoreError) {
        if names.isEmpty { return }
        for name in names { try dir.remove(name) }
        try dir.sync()
    }
}
