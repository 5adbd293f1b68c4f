import SagaCore
import Synchronization

/// One request action of the persistence layer (see “Persistence” in Sagas/README.md) and the
/// result actions it produces.
enum PersistenceOperation {
    case save
    case delete
    case request
    case cancelRequest

    /// Performs the request `r` and returns the actions to dispatch, in order (see
    /// ``perform(_:store:live:ticket:finish:)``).
    func perform(
        _ r: Record, store: any ElementStore, live: LiveRequests, ticket: AsyncLock.Ticket? = nil
    ) async -> [Value] {
        let actions = Mutex<[Value]>([])
        await perform(r, store: store, live: live, ticket: ticket) { done in actions.withLock { $0 = done } }
        return actions.withLock { $0 }
    }

    /// Performs the request `r` and calls `finish` once with the actions to dispatch, in order.
    ///
    /// A `ticket` is the action's place in the entity's lock, taken when it was dispatched
    /// (``Route/queued(_:)``); without one, a write takes the lock only while the entity has a
    /// live request. `finish` is called before the lock opens, so that the results of the
    /// entity's writes, and the `received`s they cause, are handed on in the order the
    /// writes were made: the next write, waiting for the lock, cannot hand its own on first.
    func perform(
        _ r: Record, store: any ElementStore, live: LiveRequests, ticket: AsyncLock.Ticket? = nil,
        finish: @Sendable ([Value]) -> Void
    ) async {
        let held = await ticket?.acquire()
        defer { held?.open() }
        var unlock: AsyncLock.Held?
        if held == nil, self == .save || self == .delete, case .string(let entity)? = r["entity"],
            live.hasLive(entity)
        {
            unlock = await live.lockIfLive(entity)
        }
        defer { unlock?.open() }
        finish(await performLocked(r, store: store, live: live))
    }

    /// ``perform(_:store:live:ticket:finish:)``'s work, under the entity's lock where it takes one.
    private func performLocked(_ r: Record, store: any ElementStore, live: LiveRequests) async -> [Value] {
        let ref = r["ref"]
        guard case .string(let entity)? = r["entity"], !entity.isEmpty else {
            return [failure(r, "an entity must be a non-empty string", ref: ref)]
        }
        switch self {
        case .save:
            let element = r["element"] ?? .null
            if let error = keyError(r) { return [saveFailed(entity, element, error, ref)] }
            do {
                let stored = try await store.save(entity: entity, element: element)
                return [saved(entity, stored, ref)]
                    + (live.wrote(entity) ? await live.refresh(entity, store: store) : [])
            } catch {
                return [saveFailed(entity, element, error, ref)]
            }
        case .delete:
            let (element, id) = deleteTarget(r)
            if let error = keyError(r) { return [deleteFailed(entity, element, error, ref)] }
            do {
                let removed = try await store.delete(entity: entity, id: id)
                return [deleted(entity, r["element"] ?? removed ?? element, ref)]
                    + (live.wrote(entity) ? await live.refresh(entity, store: store) : [])
            } catch {
                return [deleteFailed(entity, element, error, ref)]
            }
        case .request:
            var request = r
            request["type"] = nil
            do {
                try Self.checkRequestKeys(r)
                let query = try Query.parse(.record(r))
                let isLive = r["live"] == .bool(true)
                let writesBefore = isLive ? live.writeCount() : 0
                var elements = try await store.query(entity: entity, query)
                if isLive {
                    let id = await live.register(entity, query: query, ref: ref, last: elements)
                    // A write acknowledged between the query and the registration saw no live
                    // request to refresh: query again, or the request would miss it for good.
                    if live.writeCount() != writesBefore {
                        elements = try await store.query(entity: entity, query)
                        live.setLast(entity, id: id, elements)
                    }
                }
                return [result("persistence/received", entity, ["elements": .list(elements)], ref)]
            } catch {
                return [
                    result(
                        "persistence/requestFailed", entity,
                        ["request": .record(request), "error": .string(error.message)], ref)
                ]
            }
        case .cancelRequest:
            await live.cancel(entity)
            return [result("persistence/canceled", entity, [:], ref)]
        }
    }

    /// The element a delete names (`element`, or `{id}` from its `id`) and the id to delete.
    func deleteTarget(_ r: Record) -> (element: Value, id: Value) {
        let element = r["element"] ?? r["id"].map { ["id": $0] } ?? .null
        if case .record(let e) = element, let id = e["id"] { return (element, id) }
        return (element, r["id"] ?? .null)
    }

    /// `persistence/saved` with the element as stored.
    func saved(_ entity: String, _ element: Value, _ ref: Value?) -> Value {
        result("persistence/saved", entity, ["element": element], ref)
    }

    /// `persistence/deleted`, echoing the element the request named, as it named it; for a
    /// delete by id, the element that was stored (or just the id, when there was none).
    func deleted(_ entity: String, _ echoed: Value, _ ref: Value?) -> Value {
        result("persistence/deleted", entity, ["element": echoed], ref)
    }

    func saveFailed(_ entity: String, _ element: Value, _ error: StoreError, _ ref: Value?) -> Value {
        result("persistence/saveFailed", entity, ["element": element, "error": .string(error.message)], ref)
    }

    func deleteFailed(_ entity: String, _ element: Value, _ error: StoreError, _ ref: Value?) -> Value {
        result("persistence/deleteFailed", entity, ["element": element, "error": .string(error.message)], ref)
    }

    /// A result action: `{type, entity, …fields, ref?}`.
    func result(_ type: String, _ entity: String, _ fields: KeyValuePairs<String, Value>, _ ref: Value?) -> Value {
        // Sized once and sorted once: setting the keys one by one, each a search and an
        // insertion, would be most of a `saved`'s cost on the writer thread.
        var entries: [Record.Entry] = []
        entries.reserveCapacity(fields.count + 3)
        for (key, value) in fields { entries.append(Record.Entry(key: key, value: value)) }
        entries.append(Record.Entry(key: "entity", value: .string(entity)))
        if let ref { entries.append(Record.Entry(key: "ref", value: ref)) }
        entries.append(Record.Entry(key: "type", value: .string(type)))
        return .record(Record(unsortedEntries: entries))
    }

    /// The failure action for a request whose entity is unusable.
    func failure(_ r: Record, _ message: String, ref: Value?) -> Value {
        let entity = r["entity"] ?? .null
        var out = Record()
        switch self {
        case .save:
            out["type"] = "persistence/saveFailed"
            out["element"] = r["element"] ?? .null
        case .delete:
            out["type"] = "persistence/deleteFailed"
            out["element"] = r["element"] ?? .null
        case .request, .cancelRequest:
            out["type"] = "persistence/requestFailed"
            var request = r
            request["type"] = nil
            out["request"] = .record(request)
        }
        out["entity"] = entity
        out["error"] = .string(message)
        if let ref { out["ref"] = ref }
        return .record(out)
    }
}
