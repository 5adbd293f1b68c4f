import SagaCore
import Synchronization

/// The `live: true` requests: one per entity (a new request for the entity replaces it), with
/// the result last delivered. After each acknowledged write to the entity, its query runs
/// again and a new `received` follows the write's result when the elements changed.
///
/// While an entity has a live request, its writes are serialized with the re-query (a write
/// and the `received` it causes are one step), so each `received` reflects exactly the writes
/// acknowledged before it.
final class LiveRequests: Sendable {
    struct Entry {
        var query: Query
        var ref: Value?
        var last: [Value]
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let locks = Mutex<[String: AsyncLock]>([:])

    func register(_ entity: String, query: Query, ref: Value?, last: [Value]) async {
        entries.withLock { $0[entity] = Entry(query: query, ref: ref, last: last) }
    }

    func cancel(_ entity: String) async {
        entries.withLock { $0[entity] = nil }
    }

    /// Takes the entity's write lock if it has a live request; the caller opens it when done.
    func lockIfLive(_ entity: String) async -> AsyncLock.Held? {
        guard entries.withLock({ $0[entity] != nil }) else { return nil }
        let lock = locks.withLock { l -> AsyncLock in
            if let existing = l[entity] { return existing }
            let made = AsyncLock()
            l[entity] = made
            return made
        }
        return await lock.acquire()
    }

    /// Re-runs the entity's live query; returns a `received` action if its result changed.
    func refresh(_ entity: String, store: any ElementStore) async -> [Value] {
        guard let entry = entries.withLock({ $0[entity] }) else { return [] }
        guard let elements = try? await store.query(entity: entity, entry.query) else { return [] }
        let changed = entries.withLock { e -> Bool in
            guard var current = e[entity], current.last != elements else { return false }
            current.last = elements
            e[entity] = current
            return true
        }
        guard changed else { return [] }
        var r = Record()
        r["type"] = "persistence/received"
        r["entity"] = .string(entity)
        r["elements"] = .list(elements)
        if let ref = entry.ref { r["ref"] = ref }
        return [.record(r)]
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
