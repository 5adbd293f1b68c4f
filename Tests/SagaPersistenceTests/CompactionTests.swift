import Foundation
import SagaCore
import SagaPersistence
import Testing

/// `FileStore.compact`: the store rewritten as one snapshot and an empty log segment,
/// crash-safely, under the lock.
@Suite("Store compaction")
struct CompactionTests {
    /// 30 overwrites of 5 elements, and a delete: a log much bigger than its content.
    func fill(_ folder: TemporaryFolder) async throws -> [Value] {
        let store = try FileStore.open(directory: folder.path)
        for round in 1...30 {
            for i in 1...5 {
                _ = try await store.save(entity: "items", element: ["id": .int(i), "round": .int(round)])
            }
        }
        _ = try await store.delete(entity: "items", id: 4)
        let elements = try await all(store)
        await store.close()
        return elements
    }

    @Test func compactionKeepsEveryElementInASnapshotAndAnEmptyLog() async throws {
        try await withTemporaryFolder { folder in
            let elements = try await fill(folder)
            let log = try #require(folder.newestLog())
            let intact = folder.read(log).count
            folder.write(log, folder.read(log) + [9, 9, 9])  // a torn tail, which opening cuts
            let report = try await FileStore.compact(directory: folder.path)
            #expect(report.entities == ["items": 4] && report.tornTailBytes == 3)
            #expect(report.bytesAfter < report.bytesBefore / 10, "\(report.bytesBefore) → \(report.bytesAfter)")
            // The cut bytes stay in their own file, which compaction leaves alone.
            let kept = "torn-log-0000000000000001-at-\(intact)"
            #expect(report.tornTailKeeper == folder.path + "/" + kept)
            #expect(folder.files() == ["LOCK", "log-0000000000000002", "snapshot-0000000000000002", kept])
            #expect(folder.read(folder.path + "/log-0000000000000002").count == 32, "a header and no records")
            let verified = FileStore.verify(directory: folder.path)
            #expect(verified.isSound && verified.bytes == report.bytesAfter && verified.lastSequence == 151)
            let again = try FileStore.open(directory: folder.path)
            #expect(try await all(again) == elements)
            await again.close()
        }
    }

    @Test func aCrashAtEachStepOfACompactionLosesNothing() async throws {
        try await withTemporaryFolder { seed in
            let elements = try await fill(seed)
            func compact(failFrom: Int?) async -> (calls: Int, failed: Bool, folder: TemporaryFolder) {
                let folder = seed.copy()
                let faults = FaultInjector()
                faults.failFrom = failFrom
                let result = try? await FileStore.compact(
                    directory: folder.path, options: .init(fileSystem: faults.fileSystem()))
                return (faults.countedCalls, result == nil, folder)
            }
            let dry = await compact(failFrom: nil)
            dry.folder.remove()
            #expect(!dry.failed && dry.calls >= 15, "\(dry.calls) calls")
            for step in 1...dry.calls {
                let crashed = await compact(failFrom: step)
                defer { crashed.folder.remove() }
                #expect(crashed.failed, "call \(step)")
                let reopened = try FileStore.open(directory: crashed.folder.path)
                #expect(try await all(reopened) == elements, "crash at call \(step)")
                await reopened.close()
            }
        }
    }

    @Test func aStoreInUseIsNotCompacted() async throws {
        try await withTemporaryFolder { folder in
            _ = try await fill(folder)
            let holder = try FileStore.open(directory: folder.path)
            await #expect {
                try await FileStore.compact(directory: folder.path)
            } throws: { ($0 as? StoreError)?.code == .locked }
            await holder.close()
        }
    }

    @Test func aDamagedStoreIsRefusedAndLeftAsItIs() async throws {
        try await withTemporaryFolder { folder in
            _ = try await fill(folder)
            let log = try #require(folder.newestLog())
            var bytes = folder.read(log)
            bytes[32 + 8 + 3] ^= 1  // the first record's length: valid records follow
            folder.write(log, bytes)
            await #expect {
                try await FileStore.compact(directory: folder.path)
            } throws: { ($0 as? StoreError)?.code == .corrupt && ($0 as? StoreError)?.offset == 32 }
            #expect(folder.read(log) == bytes)
        }
    }

    @Test func thereIsNothingToCompactWhereThereIsNoStore() async throws {
        await withTemporaryFolder { folder in
            await #expect {
                try await FileStore.compact(directory: folder.path)
            } throws: { ($0 as? StoreError)?.message.contains("no saga store here") == true }
            #expect(folder.files().isEmpty, "no store was created")
        }
    }
}
