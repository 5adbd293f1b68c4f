import SagaCore
import Synchronization

/// One store folder shared by every entity's controller: it opens the store once, exposes its
/// loading state, and tells live requests when an entity changes.
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
    /// The store once open, and the work that asked for it before: see ``withStore(_:)``.
    private let access = StoreAccess()
    /// The live requests' change streams by entity; `nil` once closed (each was finished).
    private let observers = Mutex<[EntityName: [Int: AsyncStream<Void>.Continuation]]?>([:])
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
        let access = self.access
        opening = Task.detached {
            let result: Result<any ElementStore, StoreError>
            do throws(StoreError) {
                result = .success(try open())
                state.value.withLock { $0 = .loaded }
            } catch {
                result = .failure(error)
                state.value.withLock { $0 = .failed(error) }
            }
            access.open(with: result)
            return result
        }
    }

    /// Runs `body` with the open store (or the error opening it failed with): at once if it is
    /// open, or as soon as it is, in the order of the calls.
    ///
    /// A write started in `body` reaches the store in that order too, which is what keeps a
    /// controller's saves in dispatch order.
    func withStore(_ body: @escaping @Sendable (Result<any ElementStore, StoreError>) -> Void) {
        access.run(body)
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

    /// Closes the store (after waiting for it to open); every live request's stream ends.
    ///
    /// The saves and deletes already started (dispatched to a controller's middleware, or
    /// called on a controller) reach stable storage first; one started after fails with "the
    /// store is closed". A process that ends without closing may lose writes it started that
    /// were not acknowledged yet.
    public func close() async {
        if case .success(let store) = await opening.value { await store.close() }
        let live = observers.withLock { observers in
            defer { observers = nil }
            return observers?.values.flatMap(\.values) ?? []
        }
        for changes in live { changes.finish() }
    }

    /// A stream that yields after each acknowledged change to `entity`.
    func changes(of entity: String) -> AsyncStream<Void> {
        let id = nextObserver.withLock { n -> Int in
            n += 1
            return n
        }
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let isOpen = observers.withLock { observers -> Bool in
            observers?[EntityName(entity), default: [:]][id] = continuation
            return observers != nil
        }
        // Closed: no change comes any more.
        guard isOpen else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.observers.withLock { _ = $0?[EntityName(entity)]?.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells the live requests of `entity` that it changed.
    func changed(_ entity: String) {
        let current = observers.withLock { $0?[EntityName(entity)].map { Array($0.values) } ?? [] }
        for c in current { c.yield() }
    }
}

/// Who may use the store: nobody yet while it opens (the work that asks waits, in order), then
/// everyone at once.
private final class StoreAccess: Sendable {
    typealias Body = @Sendable (Result<any ElementStore, StoreError>) -> Void

    private enum State {
        /// Opening; the work waiting for the store, oldest first.
        case opening([Body])
        /// Open (or failed): the waiting work is running, and what asks meanwhile joins it.
        case draining(Result<any ElementStore, StoreError>, [Body])
        /// Open (or failed); nothing waits.
        case open(Result<any ElementStore, StoreError>)
    }

    private let state = Mutex(State.opening([]))

    /// Runs `body` now if the store is open and nothing waits before it; else queues it.
    func run(_ body: @escaping Body) {
        let now = state.withLock { s -> Result<any ElementStore, StoreError>? in
            switch s {
            case .opening(var waiting):
                waiting.append(body)
                s = .opening(waiting)
                return nil
            case .draining(let result, var waiting):
                waiting.append(body)
                s = .draining(result, waiting)
                return nil
            case .open(let result):
                return result
            }
        }
        if let now { body(now) }
    }

    /// The store opened (or failed): runs the waiting work in order, and whatever queues
    /// behind it meanwhile, then lets later work run at once.
    func open(with result: Result<any ElementStore, StoreError>) {
        var batch = state.withLock { s -> [Body] in
            guard case .opening(let waiting) = s else { return [] }
            s = .draining(result, [])
            return waiting
        }
        while !batch.isEmpty {
            for body in batch { body(result) }
            batch = state.withLock { s -> [Body] in
                guard case .draining(_, let waiting) = s, !waiting.isEmpty else {
                    s = .open(result)
                    return []
                }
                s = .draining(result, [])
                return waiting
            }
        }
        state.withLock { s in
            if case .draining = s { s = .open(result) }
        }
    }
}

/// The loading state, shared with the task that opens the store.
private final class LoadingBox: Sendable {
    let value = Mutex<FileStoreContainer.LoadingState>(.loading)
}
