import SagaCore

/// A durable collection of elements, per entity: records with an `id` (string or integer),
/// saved, deleted and queried by the persistence middleware (see “Persistence” in
/// Sagas/README.md).
///
/// Two implementations: ``MemoryStore`` (for tests and `--memory`) and ``FileStore`` (the
/// default, durable one). Both behave the same for every call.
///
/// ```swift
/// let store = try FileStore.open(directory: ".sagastore")
/// _ = try await store.save(entity: "users", element: ["id": 1, "name": "Ada"])
/// let adults = try await store.query(entity: "users", Query.parse(["where": ["age": [">=": 18]]]))
/// await store.close()
/// ```
public protocol ElementStore: AnyObject, Sendable {
    /// Inserts or replaces an element by its `id`.
    ///
    /// When the call returns, the write is acknowledged: a ``FileStore`` has it on stable
    /// storage (fdatasync done).
    ///
    /// - Returns: The element as stored.
    /// - Throws: `.invalidElement` for a non-record or a record without a string or integer
    ///   `id`; `.io` when the write or sync failed; `.closed` after ``close()``.
    func save(entity: String, element: Value) async throws(StoreError) -> Value

    /// Deletes the element with this `id`.
    ///
    /// - Returns: The deleted element, or nil if there was none.
    /// - Throws: `.invalidElement` for an id that is not a string or integer; `.io`; `.closed`.
    func delete(entity: String, id: Value) async throws(StoreError) -> Value?

    /// The elements of `entity` that match `query`, ordered and paged.
    ///
    /// It reads your writes: every save and delete started before the call is in the result,
    /// and only writes on stable storage are. A ``FileStore`` answers once the writes queued
    /// before the call are synced.
    ///
    /// - Throws: `.io` when the handle failed earlier; `.closed` after ``close()``.
    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value]

    /// Finishes every queued write, then releases the store (and its lock). Later calls throw
    /// `.closed`.
    func close() async

    /// ``save(entity:element:)`` without awaiting: starts the save and calls `completion`
    /// once, from any thread, when it is acknowledged or has failed.
    ///
    /// `completion` must be called exactly once. ``FileStore`` and ``MemoryStore`` take the
    /// write before returning, so writes started one after another on one thread reach them
    /// in that order; ``FileStore`` calls `completion` on its writer thread right after the
    /// sync, with no `Task` in between. The default implementation runs the async call in a
    /// `Task` and keeps no order: a store that the persistence middleware should keep in
    /// order implements this itself.
    func save(entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void)

    /// ``delete(entity:id:)`` without awaiting, as ``save(entity:element:completion:)``.
    func delete(entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void)
}

extension ElementStore {
    public func save(
        entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void
    ) {
        Task {
            do throws(StoreError) {
                completion(.success(try await save(entity: entity, element: element)))
            } catch {
                completion(.failure(error))
            }
        }
    }

    public func delete(
        entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void
    ) {
        Task {
            do throws(StoreError) {
                completion(.success(try await delete(entity: entity, id: id)))
            } catch {
                completion(.failure(error))
            }
        }
    }
}
