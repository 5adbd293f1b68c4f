import Foundation
import SagaCore
import SagaPersistence
import SagaTestSupport
import Testing

@Suite("File store recovery")
struct RecoveryTests {
    /// Saves `count` elements one by one (one record each), then closes.
    func fill(_ folder: TemporaryFolder, _ range: ClosedRange<Int>) async throws {
        let store = try FileStore.open(directory: folder.path)
        for i in range {
            _ = try await store.save(entity: "items", element: ["id": .int(i), "name": .string("n\(i)")])
        }
        await store.close()
    }

    /// The ids the store holds when opened.
    func reopenedIDs(_ folder: TemporaryFolder) async throws -> [Value] {
        let store = try FileStore.open(directory: folder.path)
        let result = ids(try await all(store))
        await store.close()
        return result
    }

    /// The offsets of the log's records (after its 32-byte header).
    func recordOffsets(_ bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var p = 32
        while p + 8 <= bytes.count {
            offsets.append(p)
            let length = Int(bytes[p]) | Int(bytes[p + 1]) << 8 | Int(bytes[p + 2]) << 16 | Int(bytes[p + 3]) << 24
            p += 8 + length
        }
        return offsets
    }

    @Test func aTailCutAtEveryByteOfTheLastRecordDropsOnlyThatRecord() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            let intact = folder.read(log).count
            try await fill(folder, 4...4)
            let full = folder.read(log)
            #expect(full.count > intact)
            for cut in intact..<full.count {
                folder.write(log, Array(full[..<cut]))
                #expect(try await reopenedIDs(folder) == [1, 2, 3], "cut at \(cut)")
                #expect(folder.read(log).count == intact, "the torn tail is truncated away")
            }
            folder.write(log, full)
            #expect(try await reopenedIDs(folder) == [1, 2, 3, 4])
        }
    }

    @Test func aDamagedLastRecordIsCutButItsBytesAreKept() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            let last = try #require(recordOffsets(bytes).last)
            bytes[bytes.count - 2] ^= 0x04  // an acknowledged record, its checksum broken
            folder.write(log, bytes)
            let store = try FileStore.open(directory: folder.path)
            let keeper = folder.path + "/torn-" + (log as NSString).lastPathComponent + "-at-\(last)"
            #expect(store.tornTailKeeper == keeper)
            #expect(ids(try await all(store)) == [1, 2])
            await store.close()
            #expect(folder.read(keeper) == Array(bytes[last...]), "the cut bytes are kept as they were")
            #expect(folder.read(log).count == last)
            #expect(try await reopenedIDs(folder) == [1, 2], "the store does not read the kept bytes")
            let report = FileStore.verify(directory: folder.path)
            #expect(report.isSound)
            #expect(report.warnings.map(\.path) == [keeper])
        }
    }

    /// A log torn twice at the same offset keeps both tails, the second beside the first.
    @Test func aSecondTailCutAtTheSameOffsetDoesNotReplaceTheFirst() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            let intact = folder.read(log)
            for tail: [UInt8] in [[1, 2, 3], [4, 5]] {
                folder.write(log, intact + tail)
                let store = try FileStore.open(directory: folder.path)
                await store.close()
            }
            let first = folder.path + "/torn-" + (log as NSString).lastPathComponent + "-at-\(intact.count)"
            #expect(folder.read(first) == [1, 2, 3])
            #expect(folder.read(first + "-2") == [4, 5])
        }
    }

    @Test func aTailOfZerosIsCutWithoutAFileToKeepIt() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            let files = folder.files()
            folder.write(log, folder.read(log) + [UInt8](repeating: 0, count: 4096))
            let store = try FileStore.open(directory: folder.path)
            #expect(store.tornTailBytes == 4096 && store.tornTailKeeper == nil)
            await store.close()
            #expect(folder.files() == files)
        }
    }

    @Test func aTornWriteFollowedByZerosKeepsOnlyItsOwnBytes() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            let intact = folder.read(log)
            folder.write(log, intact + [7, 0, 9] + [UInt8](repeating: 0, count: 100))
            let store = try FileStore.open(directory: folder.path)
            let keeper = try #require(store.tornTailKeeper)
            await store.close()
            #expect(keeper.hasSuffix("-at-\(intact.count)"))
            #expect(folder.read(keeper) == [7, 0, 9])
        }
    }

    @Test func afterATornTailNewWritesAreKept() async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            folder.write(log, folder.read(log).dropLast(5))
            try await fill(folder, 10...11)
            #expect(try await reopenedIDs(folder) == [1, 2, 10, 11])
        }
    }

    @Test(arguments: ["garbage", "zeros", "old epoch"])
    func aBadTailIsDropped(_ kind: String) async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...3)
            let log = try #require(folder.newestLog())
            var tail: [UInt8]
            switch kind {
            case "garbage":
                var rng = SplitMix64(seed: 42)
                tail = (0..<777).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            case "zeros":
                tail = [UInt8](repeating: 0, count: 4096)
            default:
                // Valid records of another store (another epoch) with the next sequence numbers.
                let other = TemporaryFolder()
                defer { other.remove() }
                try await fill(other, 1...5)
                let otherLog = other.read(try #require(other.newestLog()))
                tail = Array(otherLog[recordOffsets(otherLog)[3]...])
            }
            folder.write(log, folder.read(log) + tail)
            #expect(try await reopenedIDs(folder) == [1, 2, 3])
        }
    }

    @Test(arguments: [0, 8, 12, 20])
    func damageFollowedByValidRecordsIsCorruptionAndTouchesNothing(_ byte: Int) async throws {
        try await withTemporaryFolder { folder in
            try await fill(folder, 1...5)
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            let second = recordOffsets(bytes)[1]
            bytes[second + byte] ^= 0x10
            folder.write(log, bytes)
            let filesBefore = folder.files()
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .corrupt && e.path == log && e.offset == second
            }
            #expect(folder.read(log) == bytes)
            #expect(folder.files() == filesBefore)
        }
    }

    @Test func aDamagedSnapshotIsCorruption() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path, options: .init(snapshotThreshold: 1))
            for i in 1...5 { _ = try await store.save(entity: "items", element: ["id": .int(i)]) }
            await store.close()
            let snapshot = folder.path + "/" + (try #require(folder.files().first { $0.hasPrefix("snapshot-") }))
            var bytes = folder.read(snapshot)
            bytes[bytes.count - 3] ^= 1
            folder.write(snapshot, bytes)
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { ($0 as? StoreError)?.code == .corrupt && ($0 as? StoreError)?.path == snapshot }
        }
    }

    @Test func aSecondOpenOfTheSameFolderIsLocked() async throws {
        try await withTemporaryFolder { folder in
            let first = try FileStore.open(directory: folder.path)
            #expect {
                try FileStore.open(directory: folder.path)
            } throws: { error in
                guard let e = error as? StoreError else { return false }
                return e.code == .locked
                    && e.message.hasSuffix(
                        "is in use by this process (process \(getpid())): another handle of it has the store open")
            }
            await first.close()
            let second = try FileStore.open(directory: folder.path)
            await second.close()
        }
    }
}
