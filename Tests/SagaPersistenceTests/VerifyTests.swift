import Foundation
import SagaCore
import Testing

@testable import SagaPersistence

/// `FileStore.verify`: a report of what is there, judged as opening judges it, without
/// changing anything.
@Suite("Store verification")
struct VerifyTests {
    /// A store with a snapshot (of 1…4, 2 deleted) and a log of two more records.
    func fill(_ folder: TemporaryFolder) async throws {
        let store = try FileStore.open(directory: folder.path)
        for i in 1...4 { _ = try await store.save(entity: "items", element: ["id": .int(i)]) }
        _ = try await store.delete(entity: "items", id: 2)
        _ = try await store.save(entity: "people", element: ["id": "ada"])
        try await store.compact()
        _ = try await store.save(entity: "items", element: ["id": 5])
        _ = try await store.save(entity: "items", element: ["id": 1, "again": true])
        await store.close()
    }

    /// The posix calls, with every call that could change a file failing the test.
    func readOnlyFileSystem() -> FileSystem {
        var fs = FileSystem.posix
        @Sendable func forbidden(_ call: String) -> FileSystem.Failure {
            Issue.record("verify called \(call)")
            return FileSystem.Failure(call: call, errno: EPERM)
        }
        fs.write = { (_, _) throws(FileSystem.Failure) in throw forbidden("write") }
        fs.fsync = { (_) throws(FileSystem.Failure) in throw forbidden("fsync") }
        fs.fdatasync = { (_) throws(FileSystem.Failure) in throw forbidden("fdatasync") }
        fs.ftruncate = { (_, _) throws(FileSystem.Failure) in throw forbidden("ftruncate") }
        fs.rename = { (_, _) throws(FileSystem.Failure) in throw forbidden("rename") }
        fs.unlink = { (_) throws(FileSystem.Failure) in throw forbidden("unlink") }
        fs.makeDirectory = { (_) throws(FileSystem.Failure) in throw forbidden("mkdir") }
        let open = fs.open
        fs.open = { (path, flags, mode) throws(FileSystem.Failure) in
            if flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0 { throw forbidden("open for writing") }
            return try open(path, flags, mode)
        }
        return fs
    }

    @Test func aSoundStoreIsReportedFileByFile() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            let before = folder.files().map { folder.read(folder.path + "/" + $0) }
            let report = FileStore.verify(directory: folder.path, options: .init(fileSystem: readOnlyFileSystem()))
            #expect(report.isSound)
            #expect(report.problem == nil && report.warnings.isEmpty)
            #expect(report.files.map(\.name) == ["snapshot-0000000000000002", "log-0000000000000002"])
            #expect(report.files.map(\.kind) == [.snapshot, .log])
            #expect(report.files.map(\.count) == [4, 2])
            #expect(report.files.map(\.lastSequence) == [6, 8])
            #expect(report.entities == ["items": 4, "people": 1])
            #expect(report.lastSequence == 8 && report.records == 2 && report.elements == 5)
            #expect(report.bytes == before[1].count + before[2].count)
            #expect(folder.files().map { folder.read(folder.path + "/" + $0) } == before, "verify changed nothing")
        }
    }

    @Test func aTornTailIsAWarningAtTheOffsetOpeningCutsAt() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            let log = try #require(folder.newestLog())
            let intact = folder.read(log)
            folder.write(log, intact + [7, 0, 0, 0, 1, 2])
            let report = FileStore.verify(directory: folder.path, options: .init(fileSystem: readOnlyFileSystem()))
            #expect(report.isSound)
            #expect(report.warnings.count == 1)
            #expect(report.warnings.first?.path == log && report.warnings.first?.offset == intact.count)
            #expect(report.warnings.first?.message.contains("torn tail of 6 bytes") == true)
            #expect(folder.read(log).count == intact.count + 6, "verify does not cut it")
            let store = try FileStore.open(directory: folder.path)
            await store.close()
            #expect(folder.read(log) == intact, "opening cuts exactly there")
        }
    }

    /// A last record whole by its length whose checksum fails may have been acknowledged: the
    /// warning does not call it a write that never was.
    @Test func aDamagedLastRecordIsToldFromATornOne() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            bytes[bytes.count - 2] ^= 0x40
            folder.write(log, bytes)
            let report = FileStore.verify(directory: folder.path, options: .init(fileSystem: readOnlyFileSystem()))
            #expect(report.isSound)
            let message = try #require(report.warnings.first?.message)
            #expect(message.hasPrefix("a last record of ") && message.contains("whose checksum does not match"))
            #expect(!message.contains("never acknowledged"))
        }
    }

    @Test func leftoversAreWarnings() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            folder.write(folder.path + "/snapshot-0000000000000003.tmp", [1, 2, 3])
            let report = FileStore.verify(directory: folder.path)
            #expect(report.isSound)
            #expect(report.warnings.map(\.path) == [folder.path + "/snapshot-0000000000000003.tmp"])
        }
    }

    @Test func damageInTheMiddleIsTheProblemOpeningRefuses() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path)
            for i in 1...5 { _ = try await store.save(entity: "items", element: ["id": .int(i)]) }
            await store.close()
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            let second = 32 + 8 + Int(bytes[32])  // the second record: after the header and the first
            bytes[second + 12] ^= 0x40
            folder.write(log, bytes)
            let report = FileStore.verify(directory: folder.path, options: .init(fileSystem: readOnlyFileSystem()))
            let problem = try #require(report.problem)
            #expect(problem.code == .corrupt && problem.path == log && problem.offset == second)
            #expect(throws: problem) { try FileStore.open(directory: folder.path) }
        }
    }

    @Test func aSnapshotWhoseCountsDisagreeIsDamaged() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            // A snapshot whose entity says 2 elements and holds 1 (the end marker's total agrees).
            let header = FileHeader(magic: StoreFormat.snapshotMagic, epoch: 99, baseSequence: 6)
            var out = BinaryWriter(capacity: 256)
            out.bytes = header.encoded()
            func frame(_ type: UInt8, _ body: (inout BinaryWriter) throws -> Void) rethrows {
                var payload = BinaryWriter(capacity: 64)
                try body(&payload)
                payload.bytes.withUnsafeBytes {
                    Frame.append(into: &out, type: type, sequence: nil, payload: $0, seed: header.frameSeed)
                }
            }
            frame(StoreFormat.entity) {
                $0.string("items")
                $0.varint(2)
            }
            try frame(StoreFormat.element) { try $0.write(["id": 1]) }
            frame(StoreFormat.end) { $0.varint(1) }
            let snapshot = folder.path + "/snapshot-0000000000000002"
            folder.write(snapshot, out.bytes)
            let problem = try #require(FileStore.verify(directory: folder.path).problem)
            #expect(problem.code == .corrupt && problem.path == snapshot)
            #expect(problem.message.contains("entity 'items' holds 1 elements, not 2"))
            #expect(throws: problem) { try FileStore.open(directory: folder.path) }
        }
    }

    @Test func aStoreHeldByAWriterIsReportedInUse() async throws {
        try await withTemporaryFolder { folder in
            let writer = try FileStore.open(directory: folder.path)
            let report = FileStore.verify(directory: folder.path)
            #expect(report.problem?.code == .locked)
            #expect(report.problem?.message.contains("in use by this process (process \(getpid()))") == true)
            await writer.close()
            #expect(FileStore.verify(directory: folder.path).isSound)
        }
    }

    @Test func aWriterArrivingDuringVerificationIsRefusedWithoutBlamingADeadProcess() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder)
            // The lock file still names the last writer, long gone (no pid is this high).
            folder.write(folder.path + "/LOCK", Array("2147483646\n".utf8))
            let dir = StoreDirectory(path: folder.path, fs: .posix)
            let shared = try #require(try StoreLock.acquireShared(dir))
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .locked
                    && e.message.hasSuffix("in use by another process (perhaps a `sagarun store verify`)")
            }
            shared.release(dir.fs)
            let store = try FileStore.open(directory: folder.path)
            await store.close()
        }
    }

    @Test func aMissingOrEmptyFolderIsNoStore() async throws {
        await withTemporaryFolder { folder in
            let empty = FileStore.verify(directory: folder.path)
            #expect(empty.problem?.code == .missing)
            #expect(empty.problem?.message.contains("no saga store here") == true)
            let missing = FileStore.verify(directory: folder.path + "/nothing")
            #expect(missing.problem?.code == .missing)
            #expect(missing.problem?.message == "no such folder")
            // A file where the folder should be is said to be one.
            try? "x".write(toFile: folder.path + "/afile", atomically: true, encoding: .utf8)
            let file = FileStore.verify(directory: folder.path + "/afile")
            #expect(file.problem?.code == .missing)
            #expect(file.problem?.message == "not a folder (a file is there)")
            try? FileManager.default.removeItem(atPath: folder.path + "/afile")
            #expect((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [], "verify creates nothing")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/nothing"), "verify creates nothing")
        }
    }
}
