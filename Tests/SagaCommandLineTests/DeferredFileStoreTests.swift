import Foundation
import SagaCore
import SagaPersistence
import Testing

@testable import SagaCommandLine

/// The store of `sagarun run`, opened at first use: closing one never opened touches nothing,
/// and a failed open is tried once and then reported by every call.
@Suite struct DeferredFileStoreTests {
    @Test func closingAStoreNeverOpenedCreatesNothing() async throws {
        let folder = NSTemporaryDirectory() + "deferred-" + UUID().uuidString
        let store = DeferredFileStore(directory: folder, options: .init())
        await store.close()
        await store.close()
        #expect(!FileManager.default.fileExists(atPath: folder))
        await #expect(throws: StoreError.self) { try await store.save(entity: "x", element: ["id": 1]) }
        #expect(store.open() == nil)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func aFailedOpenIsTriedOnceAndEveryCallReportsIt() async throws {
        let folder = NSTemporaryDirectory() + "deferred-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let holder = try FileStore.open(directory: folder)
        let store = DeferredFileStore(directory: folder, options: .init())
        let first = store.open()
        #expect(first?.code == .locked)
        #expect(store.open() == nil)
        #expect(store.openFailure?.code == .locked)
        await holder.close()
        // Still refused: the open is not retried once the holder is gone.
        await #expect(throws: StoreError.self) { try await store.query(entity: "x", Query()) }
        await store.close()
    }
}
