import Foundation
import SagaCore
import SagaPersistence
import Testing

@Suite("File store under faults")
struct FaultTests {
    @Test func aCrashAtEachStepOfASnapshotLosesNothing() async throws {
        try await withTemporaryFolder { seed in
            let store = try FileStore.open(directory: seed.path)
            for i in 1...20 { _ = try await store.save(entity: "items", element: ["id": .int(i), "v": .int(i)]) }
            _ = try await store.delete(entity: "items", id: 7)
            await store.close()
            let expected = (1...21).filter { $0 != 7 }.map { Value.int($0) }

            // Count the calls of one save followed by a snapshot (counting starts after the save's sync).
            func run(failFrom: Int?) async throws -> (counted: Int, failed: Bool, folder: TemporaryFolder) {
                let folder = seed.copy()
                let faults = FaultInjector()
                faults.armAfterDatasyncs = 1
                faults.failFrom = failFrom
                let s = try FileStore.open(
                    directory: folder.path, options: .init(snapshotThreshold: 1, fileSystem: faults.fileSystem()))
                _ = try await s.save(entity: "items", element: ["id": 21, "v": 21])
                await s.close()
                return (faults.countedCalls, faults.failures > 0, folder)
            }
            let dry = try await run(failFrom: nil)
            dry.folder.remove()
            #expect(dry.counted >= 10, "a snapshot makes many calls: \(dry.counted)")
            for step in 1...dry.counted {
                let crashed = try await run(failFrom: step)
                defer { crashed.folder.remove() }
                #expect(crashed.failed)
                let reopened = try FileStore.open(directory: crashed.folder.path)
                #expect(ids(try await all(reopened)) == expected, "crash at call \(step)")
                // The store goes on working after recovery.
                _ = try await reopened.save(entity: "items", element: ["id": 100])
                await reopened.close()
                let again = try FileStore.open(directory: crashed.folder.path)
                #expect(ids(try await all(again)) == expected + [100], "crash at call \(step), second reopen")
                await again.close()
            }
        }
    }

    @Test func groupCommitSyncsFarFewerTimesThanItSaves() async throws {
        try await withTemporaryFolder { folder in
            let faults = FaultInjector()
            faults.datasyncDelay = 2_000  // 2 ms, as a real disk takes
            let store = try FileStore.open(directory: folder.path, options: .init(fileSystem: faults.fileSystem()))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<1_000 {
                    group.addTask {
                        _ = try await store.save(entity: "items", element: ["id": .int(i), "w": .int(i * 2)])
                    }
                }
                try await group.waitForAll()
            }
            #expect(faults.datasyncCount < 250, "\(faults.datasyncCount) syncs for 1000 saves")
            #expect(try await all(store).count == 1_000)
            await store.close()
            let again = try FileStore.open(directory: folder.path)
            #expect(ids(try await all(again)) == (0..<1_000).map { .int($0) })
            await again.close()
        }
    }

    @Test func aFailedSyncMakesTheHandleFailEveryLaterCall() async throws {
        try await withTemporaryFolder { folder in
            let faults = FaultInjector()
            faults.only = ["fdatasync"]
            faults.failFrom = 2
            let store = try FileStore.open(directory: folder.path, options: .init(fileSystem: faults.fileSystem()))
            _ = try await store.save(entity: "items", element: ["id": 1])
            await #expect {
                try await store.save(entity: "items", element: ["id": 2])
            } throws: { ($0 as? StoreError)?.code == .io && ($0 as? StoreError)?.message.contains("fdatasync") == true }
            faults.failFrom = nil  // the disk is fine again, but the handle must not pretend so
            await #expect(throws: StoreError.self) { try await store.save(entity: "items", element: ["id": 3]) }
            await #expect(throws: StoreError.self) { try await store.delete(entity: "items", id: 1) }
            await #expect(throws: StoreError.self) { try await store.query(entity: "items", Query()) }
            await store.close()

            let again = try FileStore.open(directory: folder.path)
            let kept = ids(try await all(again))
            #expect(kept.first == 1 && !kept.contains(3))
            await again.close()
        }
    }

    @Test func aFailedWriteIsReportedAndNothingIsAcknowledged() async throws {
        try await withTemporaryFolder { folder in
            let faults = FaultInjector()
            faults.only = ["write"]
            let store = try FileStore.open(directory: folder.path, options: .init(fileSystem: faults.fileSystem()))
            faults.failFrom = 1
            await #expect { try await store.save(entity: "items", element: ["id": 1]) } throws: {
                ($0 as? StoreError)?.code == .io
            }
            await store.close()
            let again = try FileStore.open(directory: folder.path)
            #expect(try await all(again) == [])
            await again.close()
        }
    }
}
