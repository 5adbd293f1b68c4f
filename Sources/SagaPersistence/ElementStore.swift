import SagaCore

/// A durable collection of elements, per entity: records with an `id` (string or integer),
/// saved, deleted and queried by the persistence middleware (§7 of the language contract).
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
    /// - Throws: `.io` when the handle failed earlier; `.closed` after ``close()``.
    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value]

    /// Finishes every queued write, then releases the store (and its lock). Later calls throw
    /// `.closed`.
    func close() async
}
