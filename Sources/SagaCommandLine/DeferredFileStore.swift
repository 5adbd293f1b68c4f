import SagaCore
import SagaPersistence
import Synchronization

/// The file store of `sagarun run`, opened at the first persistence action instead of at
/// start: a program that never persists creates no `.sagastore` folder and takes no lock, so
/// two such runs in one folder do not refuse each other.
///
/// `sagarun run` opens it from a middleware (``RunCommand/opener(_:io:)``) at the first
/// `persistence/*` action, on the interpreter's thread, which waits while the store recovers
/// its files (as start-up waited before) and reports a failure at once. If opening fails
/// (another process holds the store, say), every store call fails with that error (the sagas
/// get `persistence/saveFailed` …), and ``openFailure`` keeps it for the exit code (74).
final class DeferredFileStore: ElementStore {
    private enum State {
        case unopened
        case open(FileStore)
        case failed(StoreError)
        case closed
    }

    /// The store's folder.
    let directory: String
    private let options: FileStore.Options
    private let state = Mutex(State.unopened)

    /// A store of `directory`, not opened yet.
    init(directory: String, options: FileStore.Options) {
        self.directory = directory
        self.options = options
    }

    /// Why opening failed, if it was tried and failed.
    var openFailure: StoreError? {
        state.withLock { s in
            if case .failed(let error) = s { return error }
            return nil
        }
    }

    /// The failure that made the open store unusable (a failed write or sync), if any.
    var failure: StoreError? {
        state.withLock { s in
            if case .open(let store) = s { return store.failure }
            return nil
        }
    }

    /// The bytes of a torn tail that opening the store cut off, if it was opened.
    var tornTailBytes: Int {
        state.withLock { s in
            if case .open(let store) = s { return store.tornTailBytes }
            return 0
        }
    }

    /// The file that keeps the torn tail's bytes, if opening cut a tail that was not all zeros.
    var tornTailKeeper: String? {
        state.withLock { s in
            if case .open(let store) = s { return store.tornTailKeeper }
            return nil
        }
    }

    /// Opens the store unless that was tried already; returns the error if this call tried
    /// and failed.
    func open() -> StoreError? {
        let tried = state.withLock { s -> Bool in
            if case .unopened = s { return false }
            return true
        }
        guard !tried, case .failure(let error) = store() else { return nil }
        return error
    }

    /// The open store, opening it on first use.
    private func store() -> Result<FileStore, StoreError> {
        state.withLock { s in
            switch s {
            case .unopened:
                do throws(StoreError) {
                    let store = try FileStore.open(directory: directory, options: options)
                    s = .open(store)
                    return .success(store)
                } catch {
                    s = .failed(error)
                    return .failure(error)
                }
            case .open(let store): return .success(store)
            case .failed(let error): return .failure(error)
            case .closed: return .failure(StoreError(.closed, "the store is closed"))
            }
        }
    }

    func save(entity: String, element: Value) async throws(StoreError) -> Value {
        try await store().get().save(entity: entity, element: element)
    }

    func delete(entity: String, id: Value) async throws(StoreError) -> Value? {
        try await store().get().delete(entity: entity, id: id)
    }

    func query(entity: String, _ query: Query) async throws(StoreError) -> [Value] {
        try await store().get().query(entity: entity, query)
    }

    func save(entity: String, element: Value, completion: @escaping @Sendable (Result<Value, StoreError>) -> Void) {
        switch store() {
        case .success(let store): store.save(entity: entity, element: element, completion: completion)
        case .failure(let error): completion(.failure(error))
        }
    }

    func delete(entity: String, id: Value, completion: @escaping @Sendable (Result<Value?, StoreError>) -> Void) {
        switch store() {
        case .success(let store): store.delete(entity: entity, id: id, completion: completion)
        case .failure(let error): completion(.failure(error))
        }
    }

    /// Closes the store if it was opened; later calls fail with `.closed` (a failed open keeps
    /// its error).
    func close() async {
        let opened = state.withLock { s -> FileStore? in
            switch s {
            case .open(let store):
                s = .closed
                return store
            case .unopened:
                s = .closed
                return nil
            case .failed, .closed:
                return nil
            }
        }
        await opened?.close()
    }
}
