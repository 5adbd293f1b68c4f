import SagaCore
import SagaStore
import SagaTestSupport
import Synchronization
import Testing

@testable import SagaPersistence

/// The persistence middleware hands a save or delete to the store while the action is being
/// dispatched, without a `Task` in between, so writes reach the store in the order they
/// were put; a write to an entity with a live request takes the async path, which its lock
/// and re-query need.
@Suite struct MiddlewareHandOffTests {
    @Test func writesReachTheStoreWhileTheyAreDispatchedInOrder() {
        let store = RecordingStore()
        let persistence = ValuePersistence(store: store)
        persistence.scheduler = QueueWorkScheduler<Value>(queue: .global())
        let app = Store<Value, Value>(initialState: [:], reducer: { _, _ in }, middleware: [persistence.middleware])
        app.dispatch(["type": "persistence/save", "entity": "songs", "element": ["id": 1, "v": 1]])
        app.dispatch(["type": "persistence/delete", "entity": "songs", "id": 1])
        app.dispatch(["type": "persistence/save", "entity": "songs", "element": ["id": 1, "v": 2]])
        // No await since the dispatches: the store must have them already, in order.
        #expect(store.calls == ["start save songs 1", "start delete songs 1", "start save songs 1"])
    }

    @Test func aWriteToAnEntityWithALiveRequestTakesTheAsyncPath() async {
        let store = RecordingStore()
        let persistence = ValuePersistence(store: store)
        await persistence.live.register("songs", query: Query(), ref: nil, last: [])
        persistence.scheduler = QueueWorkScheduler<Value>(queue: .global())
        let app = Store<Value, Value>(initialState: [:], reducer: { _, _ in }, middleware: [persistence.middleware])
        app.dispatch(["type": "persistence/save", "entity": "songs", "element": ["id": 1]])
        app.dispatch(["type": "persistence/save", "entity": "albums", "element": ["id": 1]])
        #expect(store.calls.filter { $0.hasPrefix("start") } == ["start save albums 1"])
        #expect(isDirect(PersistenceOperation.save.route(["entity": "albums"], live: persistence.live)))
        #expect(!isDirect(PersistenceOperation.request.route(["entity": "albums"], live: persistence.live)))
        #expect(!isDirect(PersistenceOperation.save.route(["entity": ""], live: persistence.live)))
    }

    /// A write queued behind a live request's lock is not overtaken by a later write of the
    /// same entity, even once the live request is gone: the later one queues behind it.
    @Test func aLaterWriteDoesNotOvertakeAQueuedOne() async throws {
        let store = GatedStore()
        let persistence = ValuePersistence(store: store)
        await persistence.live.register("songs", query: Query(), ref: nil, last: [])
        let delivered = Delivered<Value>()
        let scheduler = QueueWorkScheduler<Value>(queue: .global())
        scheduler.deliver = { delivered.add($0) }
        persistence.scheduler = scheduler
        let app = Store<Value, Value>(initialState: [:], reducer: { _, _ in }, middleware: [persistence.middleware])
        // The first save queues (the entity is live) and waits at the gate inside the store.
        app.dispatch(["type": "persistence/save", "entity": "songs", "element": ["id": 1, "v": 1]])
        await persistence.live.cancel("songs")
        app.dispatch(["type": "persistence/save", "entity": "songs", "element": ["id": 1, "v": 2]])
        store.gate.open()
        await delivered.wait(for: 2)
        #expect(try await store.inner.query(entity: "songs", Query()) == [["id": 1, "v": 2]])
    }

    private func isDirect(_ route: PersistenceOperation.Route) -> Bool {
        if case .direct = route { return true }
        return false
    }
}

/// An element store that records which of its calls were made, and completes each at once
/// (a call never completed would leave its scheduler's `Task` waiting for ever).
private final class RecordingStore: ElementStore {
    private let log = Mutex<[String]>([])

    var calls: [String] { log.withLock { $0 } }

    func save(entity: String, element: Value) async throws(StoreError) -> Value {
        log.withLock { $0.append("async save \(entity)") }
        return element
    }

    func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        log.withLock { $0.append("async delete \(entity)") }
        return nil
    }

    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] { [] }

    func close() async {}

    func save(entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void) {
        log.withLock { $0.append("start save \(entity) \(element["id"].canonicalJSON)") }
        completion(.success(element))
    }

    func delete(entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void) {
        log.withLock { $0.append("start delete \(entity) \(id.canonicalJSON)") }
        completion(.success(nil))
    }
}

/// A memory store whose awaited saves of `v: 1` wait for ``gate``; everything else goes
/// through at once.
private final class GatedStore: ElementStore {
    let inner = MemoryStore()
    let gate = OpenableGate()

    func save(entity: String, element: Value) async throws(StoreError) -> Value {
        if element["v"] == 1 { await gate.wait() }
        return try await inner.save(entity: entity, element: element)
    }

    func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        try await inner.delete(entity: entity, id: id)
    }

    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] {
        try await inner.query(entity: entity, query)
    }

    func close() async { await inner.close() }

    func save(entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void) {
        inner.save(entity: entity, element: element, completion: completion)
    }
}
