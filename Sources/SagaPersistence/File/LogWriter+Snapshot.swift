import SagaCore

extension LogWriter {
    /// Compacts the store, on the writer thread between batches.
    ///
    /// The steps, in order:
    ///
    /// 1. a new log segment is created (atomically) and writes go to it;
    /// 2. every element is written to a new snapshot file, which is fsynced, renamed into
    ///    place, and the folder fsynced;
    /// 3. only then are older segments and snapshots removed (and the folder fsynced).
    ///
    /// A crash after any step leaves files that recovery reads in full: before step 2's
    /// rename, the old snapshot and every segment since it; after it, the new snapshot and
    /// the new segment (older files are leftovers to remove).
    func snapshot() throws(StoreError) {
        let newGeneration = generation + 1
        let base = nextSequence - 1
        let newLog = FileHeader(
            magic: StoreFormat.logMagic, epoch: UInt64.random(in: .min ... .max), baseSequence: base)
        // The retiring segment keeps only its records: recovery reads it whole until the
        // new snapshot is in place.
        try trimPreallocation()
        let fd = try dir.createAtomically(StoreFormat.logName(newGeneration), keepOpen: true) {
            (fd) throws(StoreError) in
            try dir.writeAll(fd, newLog.encoded(), name: StoreFormat.logName(newGeneration))
        }
        dir.fs.close(logFD)
        logFD = fd
        logHeader = newLog
        seed = newLog.frameSeed
        generation = newGeneration
        logBytes = 0
        allocatedEnd = StoreFormat.headerSize

        let elements = index.withLock { $0 }
        let name = StoreFormat.snapshotName(newGeneration)
        let header = FileHeader(
            magic: StoreFormat.snapshotMagic, epoch: UInt64.random(in: .min ... .max), baseSequence: base)
        _ = try dir.createAtomically(name, keepOpen: false) { (fd) throws(StoreError) in
            try SnapshotFile.write(elements, header: header, to: fd, name: name + StoreFormat.temporarySuffix, in: dir)
        }

        var removed = false
        for file in try dir.list() {
            guard let (_, g) = StoreFormat.parse(file), g < newGeneration else { continue }
            try dir.remove(file)
            removed = true
        }
        if removed { try dir.sync() }
    }
}
