import SagaCore
import SagaStore
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
        #expect(PersistenceOperation.save.canStart(["entity": "songs"], live: persistence.live) == false)
        #expect(PersistenceOperation.save.canStart(["entity": "albums"], live: persistence.live))
        #expect(PersistenceOperation.request.canStart(["entity": "albums"], live: persistence.live) == false)
        #expect(PersistenceOperation.save.canStart(["entity": ""], live: persistence.live) == false)
    }
}

/// An element store that records which of its calls were made, and completes none of them.
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
    }

    func delete(entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void) {
        log.withLock { $0.append("start delete \(entity) \(id.canonicalJSON)") }
    }
}
