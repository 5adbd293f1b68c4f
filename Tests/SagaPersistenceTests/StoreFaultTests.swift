import Foundation
import SagaCore
import SagaPersistence
import Testing

/// Each store fault of issue #7 gives a clear error (file, and offset where there is one),
/// never a crash and never a silent loss; opening and verifying agree on it.
@Suite("Store faults")
struct StoreFaultTests {
    /// A store of items 1…n, one record each; with `compacted`, a snapshot and a second segment.
    func fill(_ folder: TemporaryFolder, _ n: Int = 4, compacted: Bool = false) async throws {
        let store = try FileStore.open(directory: folder.path)
        for i in 1...n { _ = try await store.save(entity: "items", element: ["id": .int(i)]) }
        if compacted {
            try await store.compact()
            _ = try await store.save(entity: "items", element: ["id": .int(n + 1)])
        }
        await store.close()
    }

    /// Opening fails with `expected`, verification reports the same problem, and nothing changed.
    func expectRefused(_ folder: TemporaryFolder, _ expected: (StoreError) -> Bool) throws {
        let before = folder.files().map { folder.read(folder.path + "/" + $0) }
        let problem = try #require(FileStore.verify(directory: folder.path).problem)
        #expect(expected(problem), "verify: \(problem)")
        #expect(throws: problem) { try FileStore.open(directory: folder.path) }
        #expect(
            folder.files().map { folder.read(folder.path + "/" + $0) } == before, "a refused store is left as it is")
    }

    @Test func aNewerFormatNamesBothVersions() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, compacted: true)
            let snapshot = folder.path + "/snapshot-0000000000000002"
            var bytes = folder.read(snapshot)
            bytes[8] = 3
            folder.write(snapshot, bytes)
            try expectRefused(folder) {
                $0.code == .newerFormat && $0.path == snapshot
                    && $0.message.contains("written by a newer version (format 3); this sagarun reads up to format 1")
            }
        }
    }

    @Test func aSnapshotWithoutItsLogSegmentIsMissingAFile() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, compacted: true)
            try FileManager.default.removeItem(atPath: folder.path + "/log-0000000000000002")
            try expectRefused(folder) {
                $0.code == .corrupt
                    && $0.message
                        == "log-0000000000000002 is missing: every snapshot has a log segment of its generation"
            }
        }
    }

    @Test func aLogSegmentWithoutItsSnapshotIsMissingAFile() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, compacted: true)
            try FileManager.default.removeItem(atPath: folder.path + "/snapshot-0000000000000002")
            try expectRefused(folder) {
                $0.code == .corrupt && $0.message.hasPrefix("snapshot-0000000000000002 is missing")
            }
        }
    }

    @Test func aGapBetweenLogSegmentsIsMissingAFile() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            let log = try #require(folder.newestLog())
            folder.write(folder.path + "/log-0000000000000003", folder.read(log))
            try expectRefused(folder) {
                $0.code == .corrupt
                    && $0.message
                        == "log-0000000000000002 is missing: the log segments skip from log-0000000000000001 to "
                        + "log-0000000000000003 (a segment removed, or log-0000000000000003 is not this store's)"
            }
        }
    }

    @Test func aFullDiskAtEachWriteFailsThatSaveAndKeepsTheOthers() async throws {
        try await withTemporaryFolder { seed in
            try await fill(seed, 3)
            // A save may take more than one write (the log grows ahead of its records in
            // zero-filled chunks), so the failing write is not always that of save n.
            for n in 1...6 {
                let folder = seed.copy()
                defer { folder.remove() }
                let faults = FaultInjector()
                faults.only = ["write"]
                faults.errno = ENOSPC
                let store = try FileStore.open(directory: folder.path, options: .init(fileSystem: faults.fileSystem()))
                faults.failFrom = faults.countedCalls + n  // the n-th write after opening (which wrote the pid)
                var acknowledged: [Value] = [1, 2, 3]
                var failure: StoreError?
                for i in 4...8 {
                    do {
                        _ = try await store.save(entity: "items", element: ["id": .int(i)])
                        acknowledged.append(.int(i))
                    } catch {
                        failure = failure ?? (error as? StoreError)
                    }
                }
                await store.close()
                // The saves before the failing write are acknowledged; that one and every later
                // save fail.
                #expect(acknowledged == (0..<acknowledged.count).map { .int($0 + 1) }, "write #\(n)")
                #expect(acknowledged.count < 8 && acknowledged.count <= 3 + n - 1, "write #\(n) fails a save")
                #expect(failure?.code == .io && failure?.message == "write failed: No space left on device")
                #expect(failure?.path == folder.newestLog())
                #expect(FileStore.verify(directory: folder.path).isSound)
                let again = try FileStore.open(directory: folder.path)
                #expect(ids(try await all(again)) == acknowledged)
                await again.close()
            }
        }
    }

    @Test(arguments: ["LOCK", "log-0000000000000001"])
    func noPermissionIsAClearError(_ file: String) async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            var fs = FileSystem.posix
            let open = fs.open
            let denied = folder.path + "/" + file
            fs.open = { (path, flags, mode) throws(FileSystem.Failure) in
                if path == denied { throw FileSystem.Failure(call: "open", errno: EACCES, path: path) }
                return try open(path, flags, mode)
            }
            #expect {
                try FileStore.open(directory: folder.path, options: .init(fileSystem: fs))
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .io && e.description == "open failed: Permission denied (\(denied))"
            }
            let report = FileStore.verify(directory: folder.path, options: .init(fileSystem: fs))
            #expect(report.problem?.description == "open failed: Permission denied (\(denied))")
        }
    }

    /// The same with real permissions; root reads and writes whatever the mode says, so
    /// this only runs for other users (the seam test above covers root).
    @Test(.enabled(if: geteuid() != 0, "root ignores file permissions"))
    func anUnreadableLogIsAClearError() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            let log = try #require(folder.newestLog())
            chmod(log, 0)
            defer { chmod(log, 0o644) }
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { ($0 as? StoreError)?.description == "open failed: Permission denied (\(log))" }
        }
    }
}
