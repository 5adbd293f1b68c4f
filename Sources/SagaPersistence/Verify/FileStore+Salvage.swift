import SagaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileStore {
    /// Rebuilds a damaged store from every record whose checksum holds.
    ///
    /// It reads the newest snapshot, then each log segment since it, frame by frame in file
    /// order with the damage between passed over (two processes that both wrote one log, a
    /// disk that lost a block). In a damaged snapshot, an element whose entity is not known
    /// for sure is passed over too, and counted (``SalvageReport/orphanedElements``).
    ///
    /// The result is written as a new snapshot and an empty log segment, as `compact` writes
    /// them; only then are the old files renamed `before-recover-…` (see
    /// ``SalvageReport/keptFiles``), which the store never reads, so that nothing recovery
    /// passed over is gone.
    ///
    /// Records are replayed in the order they lie in the files, which is the order they were
    /// written unless two writers interleaved them; a save or delete whose record was damaged
    /// is lost. Run `verify` first: a sound store needs none of this.
    ///
    /// - Throws: `.locked` when a handle has the store open; `.missing` when there is no store
    ///   in the folder; `.newerFormat` for a file of a newer format; `.io` for a failed call.
    public static func salvage(directory: String, options: Options = .init()) throws(StoreError) -> SalvageReport {
        let dir = StoreDirectory(path: directory, fs: options.fileSystem)
        // Checked before the lock is taken, which would leave its file in a folder that holds
        // no store.
        try requireStore(dir)
        let lock = try StoreLock.acquire(dir)
        defer { lock.release(dir.fs) }
        var logs: [Int] = []
        var snapshots: [Int] = []
        for name in try dir.list() {
            guard let (isLog, generation) = StoreFormat.parse(name) else { continue }
            try dir.requireRegularFile(name)
            if isLog { logs.append(generation) } else { snapshots.append(generation) }
        }
        guard !logs.isEmpty || !snapshots.isEmpty else {
            throw noStore(at: directory)
        }
        var index = EntityIndex()
        var last: UInt64 = 0
        var skipped = 0
        var orphans = 0
        var lost = 0
        let newestSnapshot = snapshots.max() ?? 0
        if newestSnapshot > 0 {
            do {
                let snapshot = try dir.readSnapshot(newestSnapshot)
                index = snapshot.elements
                last = snapshot.header.baseSequence
            } catch  where error.code == .corrupt {
                // A damaged snapshot gives up its whole records, as a damaged log does.
                let name = StoreFormat.snapshotName(newestSnapshot)
                let bytes = try dir.read(name)
                let salvaged = try bytes.withUnsafeBytes { b in
                    Result { () throws(StoreError) in try SnapshotFile.salvage(b, path: dir.path(of: name)) }
                }.get()
                index = salvaged.elements
                last = salvaged.baseSequence
                skipped += salvaged.skippedBytes
                orphans = salvaged.orphans
                lost = salvaged.lost
            }
        }
        var records = 0
        // With no snapshot, a first log that starts after record 0 followed one that is gone.
        var missing: UInt64 = 0
        var unreadable: [String] = []
        for generation in logs.sorted() where generation >= newestSnapshot {
            let name = StoreFormat.logName(generation)
            let bytes = try dir.read(name)
            if newestSnapshot == 0, records == 0, missing == 0,
                let header = try? bytes.withUnsafeBytes({ b throws(StoreError) in
                    try FileHeader.read(b, magic: StoreFormat.logMagic, path: name)
                })
            {
                missing = header.baseSequence
            }
            let salvaged = try bytes.withUnsafeBytes { b in
                Result { () throws(StoreError) -> (records: [(LogDecoder.Entry, UInt64)], skipped: Int)? in
                    guard let seed = try salvageSeed(b, path: name) else { return nil }
                    return LogDecoder.salvage(b, seed: seed)
                }
            }.get()
            guard let salvaged else {
                skipped += bytes.count
                unreadable.append(name)
                continue
            }
            skipped += salvaged.skipped
            if salvaged.records.isEmpty, salvaged.skipped > 0 { unreadable.append(name) }
            for (entry, sequence) in salvaged.records {
                if entry.type == StoreFormat.save {
                    index.save(entity: entry.entity, id: entry.id, element: entry.value)
                } else {
                    _ = index.delete(entity: entry.entity, id: entry.value)
                }
                last = max(last, sequence)
                records += 1
            }
        }
        let kept = try rewrite(dir, index, generation: max(logs.max() ?? 0, newestSnapshot) + 1, lastSequence: last)
        var report = SalvageReport(
            directory: directory, records: records, skippedBytes: skipped, orphanedElements: orphans,
            recordsMissingBefore: missing, unreadableFiles: unreadable, entities: index.counts)
        report.keptFiles = kept
        report.lostSnapshotElements = lost
        return report
    }

    /// The seed of a log's record checksums; `nil` for a file too short to hold a header.
    ///
    /// It is the header's, or, where the header is damaged, the one its epoch field gives (the
    /// records' own checksums then tell whether that was right).
    ///
    /// - Throws: the header's ``StoreError`` when it says the store is of a newer format:
    ///   nothing is rebuilt from records this version cannot read.
    private static func salvageSeed(_ bytes: UnsafeRawBufferPointer, path: String) throws(StoreError) -> UInt32? {
        do {
            return try FileHeader.read(bytes, magic: StoreFormat.logMagic, path: path).frameSeed
        } catch  where error.code == .newerFormat {
            throw error
        } catch {
            return FileHeader.seed(fromDamaged: bytes, magic: StoreFormat.logMagic)
        }
    }

    /// Writes `index` as the store of `generation`: an empty log segment, then the snapshot,
    /// then renames every older file `before-recover-…` (a crash in between leaves the old
    /// files, which a second salvage reads again).
    ///
    /// - Returns: each old file's name and the name it is kept under.
    private static func rewrite(
        _ dir: StoreDirectory, _ index: EntityIndex, generation: Int, lastSequence: UInt64
    ) throws(StoreError) -> [(file: String, keptAs: String)] {
        let logName = StoreFormat.logName(generation)
        let log = FileHeader(
            magic: StoreFormat.logMagic, epoch: UInt64.random(in: .min ... .max), baseSequence: lastSequence)
        _ = try dir.createAtomically(logName, keepOpen: false) { (fd) throws(StoreError) in
            try dir.writeAll(fd, log.encoded(), name: logName)
        }
        let snapshotName = StoreFormat.snapshotName(generation)
        let header = FileHeader(
            magic: StoreFormat.snapshotMagic, epoch: UInt64.random(in: .min ... .max), baseSequence: lastSequence)
        _ = try dir.createAtomically(snapshotName, keepOpen: false) { (fd) throws(StoreError) in
            try SnapshotFile.write(
                index, header: header, to: fd, name: snapshotName + StoreFormat.temporarySuffix, in: dir)
        }
        let names = try dir.list()
        var taken = Set(names)
        var kept: [(file: String, keptAs: String)] = []
        for name in names.sorted() {
            guard let (_, g) = StoreFormat.parse(name), g < generation else { continue }
            let keptAs = StoreFormat.replacedName(name, taken: taken)
            taken.insert(keptAs)
            try dir.rename(name, to: keptAs)
            kept.append((name, keptAs))
        }
        if !kept.isEmpty { try dir.sync() }
        return kept
    }
}
