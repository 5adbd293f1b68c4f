import SagaCore
import SagaTestSupport
import Synchronization
import Testing

@testable import SagaPersistence

/// A live request registers after its first query; a write acknowledged in between saw no live
/// request to refresh.
///
/// The request notices (the entity's write count moved) and queries again, so it does not miss
/// that write for good.
@Suite struct LiveRequestRaceTests {
    @Test func aWriteBetweenALiveRequestsQueryAndItsRegistrationIsNotMissed() async throws {
        let store = SnapshotGatedStore()
        let live = LiveRequests()
        let request: Record = ["type": "persistence/request", "entity": "songs", "live": true]
        let pending = Task { await PersistenceOperation.request.perform(request, store: store, live: live) }
        // The request's query has read the (empty) store and waits before returning.
        await store.queried.wait()
        let acknowledged = Delivered<Value>()
        PersistenceOperation.save.start(
            ["type": "persistence/save", "entity": "songs", "element": ["id": 1]], store: store, live: live
        ) { actions in for a in actions { acknowledged.add(a) } }
        await acknowledged.wait(for: 1)
        #expect(acknowledged.items.first?["type"] == "persistence/saved")
        store.release.open()
        let actions = await pending.value
        #expect(actions.count == 1)
        #expect(actions.first?["type"] == "persistence/received")
        #expect(actions.first?["elements"] == [["id": 1]])
    }
}

/// A memory store whose first query reads the elements, then waits for ``release`` before
/// returning what it read (``queried`` opens once it has read them).
private final class SnapshotGatedStore: ElementStore {
    let inner = MemoryStore()
    let queried = OpenableGate()
    let release = OpenableGate()
    private let first = Mutex(true)

    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] {
        let elements = try await inner.query(entity: entity, query)
        let isFirst = first.withLock { f -> Bool in
            defer { f = false }
            return f
        }
        if isFirst {
            queried.open()
            await release.wait()
        }
        return elements
    }

    func save(entity: String, element: Value) async throws(StoreError) -> Value {
        try await inner.save(entity: entity, element: element)
    }

    func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        try await inner.delete(entity: entity, id: id)
    }

    func close() async { await inner.close() }

    func save(entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void) {
        inner.save(entity: entity, element: element, completion: completion)
    }
}
