import SagaCore
import Synchronization

/// One store folder shared by every entity's controller (the seed's `CoreDataContainer`):
/// it opens the store once, exposes its loading state, and tells live requests when an
/// entity changes.
///
/// ```swift
/// let container = FileStoreContainer(directory: "Library.store")
/// let songs = FileStoreController<Song>(container)
/// let albums = FileStoreController<Album>(container)
/// ```
public final class FileStoreContainer: Sendable {
    /// Where opening the store stands.
    public enum LoadingState: Sendable {
        case loading
        case loaded
        case failed(StoreError)
    }

    private let opening: Task<Result<any ElementStore, StoreError>, Never>
    private let observers = Mutex<[String: [Int: AsyncStream<Void>.Continuation]]>([:])
    private let nextObserver = Mutex(0)
    private let loaded = LoadingBox()

    /// Opens the file store in `directory` (created if missing), off the caller's thread.
    public convenience init(directory: String) {
        self.init { () throws(StoreError) -> any ElementStore in try FileStore.open(directory: directory) }
    }

    /// A container over an in-memory store: for tests and previews.
    public static func inMemory() -> FileStoreContainer {
        FileStoreContainer { () throws(StoreError) -> any ElementStore in MemoryStore() }
    }

    private init(open: @escaping @Sendable () throws(StoreError) -> any ElementStore) {
        let state = loaded
        opening = Task.detached {
            do throws(StoreError) {
                let store = try open()
                state.value.withLock { $0 = .loaded }
                return .success(store)
            } catch {
                state.value.withLock { $0 = .failed(error) }
                return .failure(error)
            }
        }
    }

    /// The loading state now.
    public var loadingState: LoadingState { loaded.value.withLock { $0 } }

    /// Waits until the store is open; returns the final loading state.
    @discardableResult
    public func load() async -> LoadingState {
        _ = await opening.value
        return loadingState
    }

    /// The open store, once loaded.
    func store() async throws(StoreError) -> any ElementStore {
        switch await opening.value {
        case .success(let store): return store
        case .failure(let error): throw error
        }
    }

    /// Closes the store (after waiting for it to open).
    public func close() async {
        if case .success(let store) = await opening.value { await store.close() }
    }

    /// A stream that yields after each acknowledged change to `entity`.
    func changes(of entity: String) -> AsyncStream<Void> {
        let id = nextObserver.withLock { n -> Int in
            n += 1
            return n
        }
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        observers.withLock { $0[entity, default: [:]][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.observers.withLock { _ = $0[entity]?.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells the live requests of `entity` that it changed.
    func changed(_ entity: String) {
        let current = observers.withLock { $0[entity].map { Array($0.values) } ?? [] }
        for c in current { c.yield() }
    }
}

/// The loading state, shared with the task that opens the store.
private final class LoadingBox: Sendable {
    let value = Mutex<FileStoreContainer.LoadingState>(.loading)
}
