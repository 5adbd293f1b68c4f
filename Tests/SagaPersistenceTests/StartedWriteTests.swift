import SagaCore
import Synchronization
import Testing

@testable import SagaPersistence

/// Writes started without awaiting (`save(entity:element:completion:)`, what the persistence
/// middleware uses): each is acknowledged once, they reach the store in the order they were
/// started, and a write the store cannot take fails at once.
@Suite("Writes started without awaiting")
struct StartedWriteTests {
    @Test(arguments: StoreKind.allCases)
    func writesStartedOneAfterAnotherLandInThatOrder(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let writes = 300
        let acknowledged = Delivered<Result<Value, StoreError>>()
        // Three elements, saved again and again and deleted in between: only the last write
        // of each may count, whatever the batches (the very last one deletes id 2).
        for i in 0..<writes {
            if i % 10 == 9 {
                store.delete(entity: "items", id: .int(i % 3)) { acknowledged.add($0.map { _ in .null }) }
            } else {
                store.save(entity: "items", element: ["id": .int(i % 3), "v": .int(i)]) { acknowledged.add($0) }
            }
        }
        let results = await acknowledged.wait(for: writes)
        #expect(results.count == writes)
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        #expect(try await all(store) == [["id": 0, "v": 297], ["id": 1, "v": 298]])
        await store.close()
    }

    /// A query reads the writes started before it, acknowledged or not yet: it answers once
    /// they are on stable storage.
    @Test(arguments: StoreKind.allCases)
    func aQueryReadsTheWritesStartedBeforeIt(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let acknowledged = Delivered<Result<Value, StoreError>>()
        for i in 0..<200 {
            store.save(entity: "items", element: ["id": .int(i)]) { acknowledged.add($0) }
        }
        store.delete(entity: "items", id: .int(0)) { acknowledged.add($0.map { _ in .null }) }
        // Without waiting for the acknowledgements.
        let found = try await all(store)
        #expect(found.count == 199)
        #expect(found.first?["id"] == .int(1))
        #expect(await acknowledged.wait(for: 201).count == 201)
        await store.close()
    }

    @Test(arguments: StoreKind.allCases)
    func anElementWithoutAnIdFailsAtOnce(_ kind: StoreKind) async throws {
        let (store, cleanUp) = try kind.make()
        defer { cleanUp() }
        let result = Mutex<Result<Value, StoreError>?>(nil)
        store.save(entity: "items", element: ["name": "no id"]) { r in result.withLock { $0 = r } }
        let failure = result.withLock { r -> StoreError.Code? in
            guard case .failure(let error)? = r else { return nil }
            return error.code
        }
        #expect(failure == .invalidElement)
        #expect(try await all(store) == [])
        await store.close()
    }

    @Test func aClosedFileStoreRefusesAStartedWrite() async throws {
        try await withTemporaryFolder { folder in
            let store = try FileStore.open(directory: folder.path)
            await store.close()
            let acknowledged = Delivered<Result<Value, StoreError>>()
            store.save(entity: "items", element: ["id": 1]) { acknowledged.add($0) }
            let results = await acknowledged.wait(for: 1)
            guard case .failure(let error)? = results.first else {
                Issue.record("the write was not refused: \(results)")
                return
            }
            #expect(error.code == .closed)
        }
    }
}
