import SagaCore
import Synchronization

/// The `live: true` requests, per entity, in the order they were made: each stays live until a
/// `cancelRequest` of its entity (a later request, live or not, does not end it).
///
/// After each acknowledged write to the entity, each one's query runs again, and a new
/// `received` (with that request's `ref`) follows the write's result when its elements
/// changed.
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

    private struct Entries {
        var next = 0
        var byEntity: [EntityName: [Entry]] = [:]
        /// Acknowledged writes of entities without a live request (see ``wrote(_:)``), all
        /// entities together: one integer to bump, where a count per entity would hash its
        /// name on every write; a request only asks whether the count moved.
        var writes = 0
    }

    private let entries = Mutex(Entries())
    private let locks = Mutex<[EntityName: AsyncLock]>([:])

    /// Makes a request live; returns its id (for ``setLast(_:id:_:)``).
    @discardableResult
    func register(_ entity: String, query: Query, ref: Value?, last: [Value]) async -> Int {
        entries.withLock { e in
            e.next += 1
            e.byEntity[EntityName(entity), default: []].append(Entry(id: e.next, query: query, ref: ref, last: last))
            return e.next
        }
    }

    /// Replaces what a live request last delivered (its registration raced with a write).
    func setLast(_ entity: String, id: Int, _ elements: [Value]) {
        entries.withLock { e in
            guard var list = e.byEntity[EntityName(entity)], let i = list.firstIndex(where: { $0.id == id }) else {
                return
            }
            list[i].last = elements
            e.byEntity[EntityName(entity)] = list
        }
    }

    func cancel(_ entity: String) async {
        entries.withLock { $0.byEntity[EntityName(entity)] = nil }
    }

    /// Whether the entity has a live request.
    ///
    /// Writes ask this before calling the async ``lockIfLive(_:)`` and ``refresh(_:store:)``:
    /// for the usual entity with none, their async frames would be a noticeable part of a
    /// save's cost.
    func hasLive(_ entity: String) -> Bool {
        // Most programs have no live request at all: no need to hash the entity's name then.
        entries.withLock { !$0.byEntity.isEmpty && $0.byEntity[EntityName(entity)]?.isEmpty == false }
    }

    /// Whether a write of the entity may go straight to the store (no `Task`): nil when it
    /// may (no live request, and no earlier write of the entity still waiting on the async
    /// path); otherwise its place in the entity's lock, taken now, so that it is performed
    /// after every write dispatched before it and before every one dispatched after.
    func ticketForWrite(_ entity: String) -> AsyncLock.Ticket? {
        let live = hasLive(entity)
        return locks.withLock { l -> AsyncLock.Ticket? in
            if !live, l.isEmpty || l[EntityName(entity)]?.isBusy != true { return nil }
            return Self.reserve(entity, in: &l)
        }
    }

    /// A live request's place in the entity's lock, always taken, when it is dispatched: the
    /// writes dispatched after it wait on the async path until it is registered, each then
    /// refreshing it in turn.
    ///
    /// Routed straight to the store before it registered, a write acknowledged after it did
    /// would take the lock only then, behind the writes dispatched after it, and hand on its
    /// `received` last.
    func ticketForLiveRequest(_ entity: String) -> AsyncLock.Ticket {
        locks.withLock { Self.reserve(entity, in: &$0) }
    }

    /// A request's place in the entity's lock, taken now, when writes of the entity wait on
    /// the async path.
    ///
    /// The request then reads after them. Nil when none waits: a write that went straight to
    /// the store is read anyway (see ``ElementStore/query(entity:_:)``).
    func ticketForRead(_ entity: String) -> AsyncLock.Ticket? {
        locks.withLock { l -> AsyncLock.Ticket? in
            guard l[EntityName(entity)]?.isBusy == true else { return nil }
            return Self.reserve(entity, in: &l)
        }
    }

    /// Records an acknowledged write of the entity, and says whether it has a live request to
    /// refresh.
    ///
    /// One step, so that a request registering meanwhile either sees the count change (and
    /// queries again) or is seen here.
    func wrote(_ entity: String) -> Bool {
        entries.withLock { e in
            if !e.byEntity.isEmpty, e.byEntity[EntityName(entity)]?.isEmpty == false { return true }
            e.writes &+= 1
            return false
        }
    }

    /// How many writes were acknowledged while their entity had no live request: a live
    /// request reads it before its query and again once registered (a write of another
    /// entity only costs it one more query).
    func writeCount() -> Int {
        entries.withLock { $0.writes }
    }

    /// Takes the entity's write lock if it has a live request; the caller opens it when done.
    func lockIfLive(_ entity: String) async -> AsyncLock.Held? {
        guard hasLive(entity) else { return nil }
        let ticket = locks.withLock { Self.reserve(entity, in: &$0) }
        return await ticket.acquire()
    }

    /// A place in the entity's lock, made on first use.
    private static func reserve(_ entity: String, in locks: inout [EntityName: AsyncLock]) -> AsyncLock.Ticket {
        let name = EntityName(entity)
        let lock = locks[name] ?? AsyncLock()
        locks[name] = lock
        return lock.reserve()
    }

    /// Re-runs the entity's live queries; returns a `received` action for each whose result
    /// changed, in the order the requests were made.
    func refresh(_ entity: String, store: any ElementStore) async -> [Value] {
        let current = entries.withLock { $0.byEntity[EntityName(entity)] ?? [] }
        var actions: [Value] = []
        for entry in current {
            guard let elements = try? await store.query(entity: entity, entry.query) else { continue }
            let changed = entries.withLock { e -> Bool in
                guard var list = e.byEntity[EntityName(entity)], let i = list.firstIndex(where: { $0.id == entry.id }),
                    list[i].last != elements
                else { return false }
                list[i].last = elements
                e.byEntity[EntityName(entity)] = list
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

/// A first-come-first-served lock for async code, whose order is fixed when a place is
/// reserved (``reserve()``, synchronous) rather than when a `Task` gets to ``Ticket/acquire()``:
/// two Tasks started one after the other may begin in either order.
final class AsyncLock: Sendable {
    /// A place in the lock's queue; it must be acquired (and the lock opened) exactly once,
    /// or the places after it wait for ever.
    struct Ticket: Sendable {
        let lock: AsyncLock
        let number: Int

        /// Waits for this place's turn.
        func acquire() async -> Held { await lock.acquire(self) }
    }

    /// A held lock; `open` releases it.
    struct Held: Sendable {
        let lock: AsyncLock
        func open() { lock.release() }
    }

    private struct State {
        var next = 0
        var serving = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Whether a place is taken that has not been released yet.
    var isBusy: Bool { state.withLock { $0.next != $0.serving } }

    /// Takes the next place in the queue.
    func reserve() -> Ticket {
        state.withLock { s in
            defer { s.next += 1 }
            return Ticket(lock: self, number: s.next)
        }
    }

    /// Takes the next place and waits for it.
    func acquire() async -> Held { await reserve().acquire() }

    fileprivate func acquire(_ ticket: Ticket) async -> Held {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.serving == ticket.number { return true }
                s.waiters[ticket.number] = c
                return false
            }
            if now { c.resume() }
        }
        return Held(lock: self)
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.serving += 1
            return s.waiters.removeValue(forKey: s.serving)
        }
        next?.resume()
    }
}
