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

    /// A write dispatched after a live request waits behind it.
    ///
    /// The request takes its place in its entity's lock when it is dispatched, so a write
    /// dispatched after it, while it has not yet registered, does not go straight to the store.
    /// (Acknowledged after the registration, such a write would take the lock only then, behind
    /// the writes dispatched after it, and hand its `received` on last: in real time, one run in
    /// a few hundred ended on an older result.) Another entity's writes still go straight to
    /// the store.
    @Test func aWriteDispatchedAfterALiveRequestQueuesBehindIt() {
        let live = LiveRequests()
        let request: Record = ["type": "persistence/request", "entity": "songs", "live": true]
        guard case .queued = PersistenceOperation.request.route(request, live: live) else {
            Issue.record("a live request took no place in its entity's lock")
            return
        }
        let save: Record = ["type": "persistence/save", "entity": "songs", "element": ["id": 1]]
        guard case .queued = PersistenceOperation.save.route(save, live: live) else {
            Issue.record("a write after a live request went straight to the store")
            return
        }
        let other: Record = ["type": "persistence/save", "entity": "albums", "element": ["id": 1]]
        guard case .direct = PersistenceOperation.save.route(other, live: live) else {
            Issue.record("a write of another entity waited")
            return
        }
        // A request that is not live takes no place when no write waits.
        let once: Record = ["type": "persistence/request", "entity": "albums"]
        guard case .async = PersistenceOperation.request.route(once, live: live) else {
            Issue.record("a request that is not live queued")
            return
        }
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
