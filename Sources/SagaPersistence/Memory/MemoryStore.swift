import SagaCore
import Synchronization

/// An element store that lives in memory only: for tests and `sagarun --memory`.
///
/// It behaves as ``FileStore`` does, minus durability: every call completes at once.
///
/// ```swift
/// let store = MemoryStore()
/// _ = try await store.save(entity: "todos", element: ["id": "t1", "done": false])
/// ```
public final class MemoryStore: ElementStore {
    private let state = Mutex<(index: EntityIndex, closed: Bool)>((EntityIndex(), false))

    /// An empty store.
    public init() {}

    /// Inserts or replaces `element` by its `id`; see ``ElementStore/save(entity:element:)``.
    public func save(entity: String, element: Value) async throws(StoreError) -> Value {
        try saveNow(entity: entity, element: element)
    }

    /// Saves at once, on the calling thread, then calls `completion` there.
    public func save(
        entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void
    ) {
        completion(Result { () throws(StoreError) in try saveNow(entity: entity, element: element) })
    }

    /// Deletes at once, on the calling thread, then calls `completion` there.
    public func delete(
        entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void
    ) {
        completion(Result { () throws(StoreError) in try deleteNow(entity: entity, id: id) })
    }

    private func saveNow(entity: String, element: Value) throws(StoreError) -> Value {
        let id = try ElementID.of(element)
        try Self.checkStorable(element)
        return try state.withLock { (s) throws(StoreError) -> Value in
            if s.closed { throw .closed }
            s.index.save(entity: entity, id: id, element: element)
            return element
        }
    }

    /// Deletes by `id`; see ``ElementStore/delete(entity:id:)``.
    public func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        try deleteNow(entity: entity, id: id)
    }

    private func deleteNow(entity: String, id: Value) throws(StoreError) -> Value? {
        let key = try ElementID.check(id)
        return try state.withLock { (s) throws(StoreError) -> Value? in
            if s.closed { throw .closed }
            return s.index.delete(entity: entity, id: key)
        }
    }

    /// The matching elements; see ``ElementStore/query(entity:_:)``.
    public func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] {
        let snapshot = try state.withLock { (s) throws(StoreError) -> EntityIndex in
            if s.closed { throw .closed }
            return s.index
        }
        return snapshot.query(entity: entity, query)
    }

    /// Marks the store closed; later calls throw `.closed`.
    public func close() async {
        state.withLock { $0.closed = true }
    }

    /// The memory store refuses what the file store cannot encode, so both behave alike.
    private static func checkStorable(_ element: Value) throws(StoreError) {
        var scratch = BinaryWriter()
        try scratch.write(element)
    }
}
