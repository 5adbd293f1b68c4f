import SagaCore

/// The durable element store: a folder of append-only log segments and snapshots, owned by
/// one open handle at a time.
///
/// - Every save and delete is encoded by its caller, then appended by a single writer
///   thread that syncs (fdatasync) once per batch of queued writes (group commit); the call
///   returns only after that sync, so an acknowledged write survives a crash.
/// - Queries read an in-memory index (per entity, id to element) that the writer updates
///   after each sync; they never see a write that is not yet durable.
/// - When the newest log segment grows past ``Options/snapshotThreshold``, all elements are
///   written to a snapshot and older files removed.
/// - Opening recovers: the newest snapshot, then the log; a torn tail (an incomplete last
///   record) is cut off, its bytes kept in a `torn-…` file beside the log unless they are all
///   zeros, while damage followed by valid records is refused as `.corrupt`.
///
/// ```swift
/// let store = try FileStore.open(directory: ".sagastore")
/// defer { Task { await store.close() } }
/// let saved = try await store.save(entity: "books", element: ["id": 1, "title": "Dune"])
/// ```
public final class FileStore: ElementStore {
    /// The store's folder.
    public let directory: String
    let writer: LogWriter
    /// The bytes of the torn tail that opening cut off (an unacknowledged write).
    package let tornTailBytes: Int
    /// The path of the file that keeps the torn tail's bytes, if they were not all zeros.
    package let tornTailKeeper: String?

    private init(directory: String, writer: LogWriter, recovered: LogWriter.Recovered) {
        self.directory = directory
        self.writer = writer
        self.tornTailBytes = recovered.tornTailBytes
        self.tornTailKeeper = recovered.tornTailKeeper
    }

    deinit { writer.requestClose() }

    /// Opens (or creates) the store in `directory`, recovering its contents.
    ///
    /// This call blocks while it reads the files: call it before starting work, not from a
    /// busy task.
    ///
    /// - Throws: `.locked` (naming the holder's pid) when another handle has the store open;
    ///   `.corrupt` (with the file and offset) for damaged files, which are left untouched;
    ///   `.newerFormat` for a store written by a newer version; `.io` for a failed call.
    public static func open(directory: String, options: Options = .init()) throws(StoreError) -> FileStore {
        let dir = StoreDirectory(path: directory, fs: options.fileSystem)
        try dir.create()
        let lock = try StoreLock.acquire(dir)
        let recovered: LogWriter.Recovered
        do {
            recovered = try Recovery.run(dir)
        } catch {
            lock.release(dir.fs)
            throw error
        }
        let writer = LogWriter(
            dir: dir, lock: lock, recovered: recovered, snapshotThreshold: max(0, options.snapshotThreshold),
            preallocation: max(0, options.preallocation))
        writer.start()
        return FileStore(directory: directory, writer: writer, recovered: recovered)
    }

    /// Inserts or replaces `element` by its `id`, durably; see ``ElementStore/save(entity:element:)``.
    public func save(entity: String, element: Value) async throws(StoreError) -> Value {
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Value, StoreError>, Never>) in
            save(entity: entity, element: element) { c.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Deletes by `id`, durably; see ``ElementStore/delete(entity:id:)``.
    public func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        let result = await withCheckedContinuation { (c: CheckedContinuation<Result<Value?, StoreError>, Never>) in
            delete(entity: entity, id: id) { c.resume(returning: $0) }
        }
        return try result.get()
    }

    /// Encodes the save on the calling thread and queues it for the writer, which calls
    /// `completion` on its own thread right after the batch's sync (or at once, on this
    /// thread, for an element it cannot store).
    public func save(
        entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void
    ) {
        let payload: [UInt8]
        let id: Value
        do throws(StoreError) {
            id = try ElementID.of(element)
            payload = try Self.payload(entity, element, capacity: 64)
        } catch {
            return completion(.failure(error))
        }
        writer.submit(
            LogWriter.Pending(
                type: StoreFormat.save, entity: entity, id: id, element: element, payload: payload,
                finish: { result in completion(result.map { $0 ?? element }) }))
    }

    /// Encodes the delete on the calling thread and queues it, as
    /// ``save(entity:element:completion:)`` does.
    public func delete(
        entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void
    ) {
        let payload: [UInt8]
        let key: Value
        do throws(StoreError) {
            key = try ElementID.check(id)
            payload = try Self.payload(entity, key, capacity: 32)
        } catch {
            return completion(.failure(error))
        }
        writer.submit(
            LogWriter.Pending(
                type: StoreFormat.delete, entity: entity, id: key, element: .null, payload: payload,
                finish: completion))
    }

    /// A write's frame payload: the entity's name, then the element (a save) or the id (a
    /// delete).
    private static func payload(_ entity: String, _ value: Value, capacity: Int) throws(StoreError) -> [UInt8] {
        var out = BinaryWriter(capacity: capacity)
        out.string(entity)
        try out.write(value)
        return out.bytes
    }

    /// The matching elements; see ``ElementStore/query(entity:_:)``.
    public func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] {
        await writer.awaitWritesSubmitted()
        if let error = writer.unusable() { throw error }
        let elements = writer.index.withLock { $0 }
        return elements.query(entity: entity, query)
    }

    /// Finishes the queued writes, closes the files and releases the lock.
    public func close() async {
        await writer.close()
    }
}
