#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads and checks every file of a store's folder without changing anything: the newest
/// snapshot, then each log segment after it.
///
/// Opening a store (``Recovery``) and `sagarun store verify`
/// (``FileStore/verify(directory:options:)``) both start here, so what verify calls sound is
/// exactly what opening accepts, and verify's warnings are exactly what opening repairs (a
/// torn tail it cuts, leftovers it removes).
struct StoreScan {
    /// The live files read, in order (the newest snapshot first), as far as the scan got.
    var files: [StoreReport.File] = []
    /// Superseded files and temporaries that opening removes.
    var leftovers: [String] = []
    /// Names that are not the store's (opening ignores them).
    var foreign: [String] = []
    /// Files that keep bytes an earlier opening cut off a log's end (opening ignores them).
    var keptTails: [String] = []
    /// Files `store recover` replaced, kept as they were (opening ignores them).
    var replaced: [String] = []
    /// The elements, after the snapshot and every log record.
    var index = EntityIndex()
    /// The sequence number of the last record (or the snapshot's base).
    var lastSequence: UInt64 = 0
    /// The newest log segment, which opening appends to.
    var newestLog: (name: String, generation: Int, header: FileHeader, validEnd: Int, size: Int)?
    /// The first damage found; the scan stops there.
    var problem: StoreError?

    /// Scans the folder of `dir`.
    ///
    /// Never throws: a damaged store gives a scan with a `problem`.
    static func run(_ dir: StoreDirectory) -> StoreScan {
        var scan = StoreScan()
        do throws(StoreError) { try scan.scan(dir) } catch { scan.problem = error }
        return scan
    }

    /// The torn tail of the newest log up to its last byte that is not zero: empty when the
    /// tail is only the zeros the log was extended by.
    var tornContent: [UInt8] = []

    /// Whether the torn tail is one record by its length, whose checksum fails: a record
    /// damaged after it was written (perhaps acknowledged) as much as a write a crash
    /// interrupted.
    var tornTailIsWholeRecord = false

    /// The torn tail of the newest log: where it starts and how long it is.
    var tornTail: (name: String, offset: Int, bytes: Int)? {
        guard let log = newestLog, log.validEnd < log.size else { return nil }
        return (log.name, log.validEnd, log.size - log.validEnd)
    }

    /// The file opening keeps the torn tail's bytes in, if they are not all zeros: a name no
    /// kept file has yet (a log torn at the same offset twice keeps both tails).
    var tornTailKeeper: String? {
        guard let torn = tornTail, !tornContent.isEmpty else { return nil }
        return StoreFormat.unusedName(StoreFormat.tornName(torn.name, offset: torn.offset), isTaken: keptTails.contains)
    }

    private mutating func scan(_ dir: StoreDirectory) throws(StoreError) {
        var logs: [Int] = []
        var snapshots: [Int] = []
        for name in try dir.list().sorted() {
            if name.hasSuffix(StoreFormat.temporarySuffix) {
                try dir.requireRegularFile(name)
                leftovers.append(name)
            } else if let (isLog, g) = StoreFormat.parse(name) {
                try dir.requireRegularFile(name)
                if isLog { logs.append(g) } else { snapshots.append(g) }
            } else if name.hasPrefix(StoreFormat.tornPrefix) {
                keptTails.append(name)
            } else if name.hasPrefix(StoreFormat.replacedPrefix) {
                replaced.append(name)
            } else if name == StoreFormat.lockName {
                // Opening takes the lock in it: a folder there fails every run.
                try dir.requireRegularFile(name)
            } else {
                foreign.append(name)
            }
        }
        let newest = snapshots.max() ?? 0
        if newest > 0 {
            let snapshot = try dir.readSnapshot(newest)
            index = snapshot.elements
            lastSequence = snapshot.header.baseSequence
            files.append(
                StoreReport.File(
                    name: StoreFormat.snapshotName(newest), kind: .snapshot, bytes: snapshot.bytes,
                    count: snapshot.elements.count, lastSequence: snapshot.header.baseSequence))
        }
        for g in logs where g < newest { leftovers.append(StoreFormat.logName(g)) }
        for g in snapshots where g < newest { leftovers.append(StoreFormat.snapshotName(g)) }

        let first = max(newest, 1)
        let live = logs.filter { $0 >= first }.sorted()
        try checkGenerations(live, first: first, newest: newest, dir: dir)
        for g in live {
            let name = StoreFormat.logName(g)
            let isLast = g == live.last
            let bytes = try dir.read(name)
            let base = lastSequence
            let (header, validEnd, last) = try withBytes(bytes) { (b) throws(StoreError) in
                try LogReplay.replay(b, path: dir.path(of: name), base: base, isLast: isLast, into: &index)
            }
            lastSequence = last
            files.append(
                StoreReport.File(
                    name: name, kind: .log, bytes: bytes.count, count: Int(last - base), lastSequence: last))
            if isLast {
                newestLog = (name, g, header, validEnd, bytes.count)
                let end = (bytes.lastIndex { $0 != 0 } ?? 0) + 1
                if end > validEnd { tornContent = Array(bytes[validEnd..<end]) }
                tornTailIsWholeRecord = Frame.declaredEnd(of: bytes, at: validEnd) == bytes.count
            }
        }
    }

    /// Refuses a gap in the log segments' generations, or a snapshot without its segment,
    /// naming the file that is missing.
    private func checkGenerations(_ live: [Int], first: Int, newest: Int, dir: StoreDirectory) throws(StoreError) {
        if newest > 0, live.first != newest {
            throw StoreError(
                .corrupt,
                "\(StoreFormat.logName(newest)) is missing: every snapshot has a log segment of its generation",
                path: dir.path)
        }
        if newest == 0, let start = live.first, start > 1 {
            // Segments after the first are only made with a snapshot of the same generation,
            // written before the older files are removed: the snapshot is what went missing.
            throw StoreError(
                .corrupt,
                "\(StoreFormat.snapshotName(start)) is missing: \(StoreFormat.logName(start)) continues a snapshot that is not there",
                path: dir.path)
        }
        for (i, g) in live.enumerated() where g != first + i {
            // Which file the gap comes before: a segment removed, or a file that is not this
            // store's (a copy of another store's, a stray one).
            throw StoreError(
                .corrupt,
                "\(StoreFormat.logName(first + i)) is missing: the log segments skip from "
                    + "\(StoreFormat.logName(first + i - 1)) to \(StoreFormat.logName(g)) (a segment removed, or "
                    + "\(StoreFormat.logName(g)) is not this store's)",
                path: dir.path)
        }
    }
}
