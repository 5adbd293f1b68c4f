import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FileStore {
    /// Checks the store in `directory` without changing anything: every file's header and
    /// every frame's checksum, the sequence numbers across segments, the snapshot's counts.
    ///
    /// It reads what opening would read and judges as opening does: a store it calls sound
    /// opens with every record it holds; a torn tail or a leftover of an interrupted
    /// snapshot is a warning (opening repairs it), and so is a `torn-…` file that keeps the
    /// bytes an earlier opening cut.
    ///
    /// It takes the lock shared, so no writer can change the files while they are read;
    /// when a writer holds the store, the report's problem is `.locked`, naming it.
    public static func verify(directory: String, options: Options = .init()) -> StoreReport {
        let dir = StoreDirectory(path: directory, fs: options.fileSystem)
        var report = StoreReport(directory: directory)
        // Nothing to lock where there is no folder. (A folder with leftovers but no store
        // is scanned: they may be damage to report.)
        guard (try? dir.list()) != nil else {
            report.problem = StoreError(.missing, Self.noFolder(at: directory), path: directory)
            return report
        }
        let lock: StoreLock.Held?
        do throws(StoreError) {
            lock = try StoreLock.acquireShared(dir)
        } catch {
            report.problem = error
            return report
        }
        defer { lock?.release(dir.fs) }
        let scan = StoreScan.run(dir)
        report.files = scan.files
        report.lastSequence = scan.lastSequence
        report.problem = scan.problem
        if scan.problem == nil, scan.files.isEmpty {
            report.problem = noStore(at: directory)
        }
        guard report.problem == nil else { return report }
        report.entities = scan.index.counts
        if let torn = scan.tornTail {
            let what =
                scan.tornTailIsWholeRecord
                ? "a last record of \(torn.bytes) bytes whose checksum does not match (damaged after it was "
                    + "written, and perhaps acknowledged; or a write a crash interrupted)"
                : "a torn tail of \(torn.bytes) bytes after the last whole record (a write a crash interrupted, "
                    + "never acknowledged; zeros the log was extended by; or a log cut short, whose last records "
                    + "are lost)"
            report.warnings.append(
                StoreReport.Warning(
                    what + "; opening the store cuts it"
                        + (scan.tornTailKeeper.map { ", keeping its bytes in \($0)" } ?? ""),
                    path: dir.path(of: torn.name), offset: torn.offset))
        }
        for name in scan.keptTails {
            report.warnings.append(
                StoreReport.Warning(
                    "bytes an opening of the store cut off the end of a log (a write a crash interrupted, or a "
                        + "damaged last record); the store does not read them: remove the file once nothing in it "
                        + "is wanted",
                    path: dir.path(of: name)))
        }
        for name in scan.replaced {
            report.warnings.append(
                StoreReport.Warning(
                    "a file 'store recover' replaced, kept as it was (records it could not read may still be got "
                        + "from it); the store does not read it: remove the file once nothing in it is wanted",
                    path: dir.path(of: name)))
        }
        for name in scan.leftovers {
            report.warnings.append(
                StoreReport.Warning(
                    "a leftover of an interrupted snapshot; opening the store removes it", path: dir.path(of: name)))
        }
        return report
    }

    /// Rewrites the store in `directory` as one snapshot and an empty log segment, crash-safely
    /// (each new file is written under a temporary name, synced, renamed into place and the
    /// folder synced before older files are removed).
    ///
    /// - Throws: `.locked` (naming the holder) when another handle has the store open;
    ///   `.corrupt` when there is no store in the folder, or it is damaged (then it is left
    ///   untouched); `.newerFormat`; `.io` for a failed call.
    public static func compact(
        directory: String, options: Options = .init()
    ) async throws(StoreError)
        -> CompactionReport
    {
        let dir = StoreDirectory(path: directory, fs: options.fileSystem)
        // Compacting never creates a store where there is none (opening would).
        try requireStore(dir)
        let before = try storeBytes(dir)
        let store = try open(directory: directory, options: options)
        let after: Int
        do throws(StoreError) {
            try await store.compact()
            after = try storeBytes(dir)
        } catch {
            await store.close()
            throw error
        }
        let entities = store.writer.index.withLock { $0.counts }
        await store.close()
        return CompactionReport(
            directory: directory, bytesBefore: before, bytesAfter: after, entities: entities,
            tornTailBytes: store.tornTailBytes, tornTailKeeper: store.tornTailKeeper)
    }

    /// Writes a snapshot of every element now and starts an empty log segment, after the
    /// writes queued before this call; older files are then removed.
    ///
    /// - Throws: The handle's failure, if it has failed; `.io` for a failed call (which then
    ///   makes the handle fail every later call, as a failed write does).
    public func compact() async throws(StoreError) {
        try await writer.compact()
    }

    /// The failure that made this handle unusable (a failed write, sync or snapshot), if one
    /// did; every call then throws it.
    ///
    /// Acknowledged writes are on disk all the same.
    public var failure: StoreError? { writer.fatalFailure }

    /// The total size of the store's log segments, snapshots and temporaries.
    private static func storeBytes(_ dir: StoreDirectory) throws(StoreError) -> Int {
        var total = 0
        for name in try dir.list()
        where StoreFormat.parse(name) != nil || name.hasSuffix(StoreFormat.temporarySuffix) {
            let fd = try dir.open(name, O_RDONLY)
            defer { dir.fs.close(fd) }
            do { total += Int(try dir.fs.seekToEnd(fd)) } catch { throw error.storeError(path: dir.path(of: name)) }
        }
        return total
    }

    /// Throws `.missing` unless `dir` holds a log segment or a snapshot (a maintenance command
    /// never creates a store where there is none, as opening would).
    static func requireStore(_ dir: StoreDirectory) throws(StoreError) {
        let names: [String]
        do throws(StoreError) {
            names = try dir.list()
        } catch {
            throw StoreError(.missing, noFolder(at: dir.path), path: dir.path)
        }
        guard names.contains(where: { StoreFormat.parse($0) != nil }) else { throw noStore(at: dir.path) }
    }

    /// Why a path that cannot be listed is no store: it is a file, or nothing.
    private static func noFolder(at path: String) -> String {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
            ? "not a folder (a file is there)" : "no such folder"
    }

    /// The `.missing` error of a folder that holds no store.
    static func noStore(at path: String) -> StoreError {
        StoreError(.missing, "no saga store here: no log segment and no snapshot", path: path)
    }
}
