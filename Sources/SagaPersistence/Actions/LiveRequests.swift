import SagaCore
import Synchronization

/// The `live: true` requests, per entity, in the order they were made: each stays live until
/// a `cancelRequest` of its entity (a later request, live or not, does not end it). After each
/// acknowledged write to the entity, each one's query runs again, and a new `received` (with
/// that request's `ref`) follows the write's result when its elements changed.
///
/// While an entity has a live request, its writes are serialized with the re-queries (a write
/// and the `received`s it causes are one step), so each `received` reflects exactly the writes
/// acknowledged before it.
final class LiveRequests: Sendable {
    struct Entry: Sendable {
        var id: Int
        var query: Query
        var ref: Value?
        var last: [Value]
    }

    private let entries = Mutex<(next: Int, byEntity: [String: [Entry]])>((0, [:]))
    private let locks = Mutex<[String: AsyncLock]>([:])

    func register(_ entity: String, query: Query, ref: Value?, last: [Value]) async {
        entries.withLock { e in
            e.next += 1
            e.byEntity[entity, default: []].append(Entry(id: e.next, query: query, ref: ref, last: last))
        }
    }

    func cancel(_ entity: String) async {
        entries.withLock { $0.byEntity[entity] = nil }
    }

    /// Whether the entity has a live request. Writes ask this before calling the async
    /// ``lockIfLive(_:)`` and ``refresh(_:store:)``: for the usual entity with none, their
    /// async frames were a tenth of a save's cost (callgrind, save-many).
    func hasLive(_ entity: String) -> Bool {
        // Most programs have no live request at all: no need to hash the entity's name then.
        entries.withLock { !$0.byEntity.isEmpty && $0.byEntity[entity]?.isEmpty == false }
    }

    /// Takes the entity's write lock if it has a live request; the caller opens it when done.
    func lockIfLive(_ entity: String) async -> AsyncLock.Held? {
        guard hasLive(entity) else { return nil }
        let lock = locks.withLock { l -> AsyncLock in
            if let existing = l[entity] { return existing }
            let made = AsyncLock()
            l[entity] = made
            return made
        }
        return await lock.acquire()
    }

    /// Re-runs the entity's live queries; returns a `received` action for each whose result
    /// changed, in the order the requests were made.
    func refresh(_ entity: String, store: any ElementStore) async -> [Value] {
        let current = entries.withLock { $0.byEntity[entity] ?? [] }
        var actions: [Value] = []
        for entry in current {
            guard let elements = try? await store.query(entity: entity, entry.query) else { continue }
            let changed = entries.withLock { e -> Bool in
                guard var list = e.byEntity[entity], let i = list.firstIndex(where: { $0.id == entry.id }),
                    list[i].last != elements
                else { return false }
                list[i].last = elements
                e.byEntity[entity] = list
                return true
            }
            guard changed else { continue }
            var r = Record()
            r["type"] = "persistence/received"
            r["entity"] = .string(entity)
            r["elements"] = .list(elements)
            if let ref = entry.ref { r["ref"] = ref }
            actions.append(.record(r))
        }
        return actions
    }
}

/// A first-come-first-served lock for async code.
final class AsyncLock: Sendable {
    /// A held lock; `open` releases it.
    struct Held: Sendable {
        let lock: AsyncLock
        func open() { lock.release() }
    }

    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    func acquire() async -> Held {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if !s.held {
                    s.held = true
                    return true
                }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
        return Held(lock: self)
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty {
                s.held = false
                return nil
            }
            return s.waiters.removeFirst()
        }
        next?.resume()
    }
}
