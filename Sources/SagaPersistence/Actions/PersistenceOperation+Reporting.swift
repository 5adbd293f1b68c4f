import SagaCore

extension PersistenceOperation {
    /// How a request action is performed.
    enum Route {
        /// Handed to the store at once, reporting its end (``start(_:store:live:finish:)``).
        case direct
        /// A write, or a request, on the async path with its place in the entity's lock taken
        /// at dispatch: later writes of its entity do not overtake it, and it does not overtake
        /// the writes before it.
        case queued(AsyncLock.Ticket)
        /// The async ``perform(_:store:live:)``.
        case async
    }

    /// The route of `r`: a save or delete of a valid entity goes direct unless the entity has
    /// a live request (whose lock and re-query need the async path) or a write still queued
    /// on that path; a request queues behind such writes, so that it reads them, and a live
    /// request always queues, so that the writes after it queue behind it (see
    /// ``LiveRequests/ticketForLiveRequest(_:)``); everything else is async.
    func route(_ r: Record, live: LiveRequests) -> Route {
        guard case .string(let entity)? = r["entity"], !entity.isEmpty else { return .async }
        switch self {
        case .save, .delete: return live.ticketForWrite(entity).map { .queued($0) } ?? .direct
        case .request:
            if r["live"] == .bool(true) { return .queued(live.ticketForLiveRequest(entity)) }
            return live.ticketForRead(entity).map { .queued($0) } ?? .async
        case .cancelRequest: return .async
        }
    }

    /// Starts the save or delete `r` (routed ``Route/direct``) and calls `finish` once
    /// with the actions to dispatch, from the thread the store acknowledges on: the same
    /// actions as ``perform(_:store:live:)``, without a `Task`.
    ///
    /// The store receives the write before this returns, so writes started one after another
    /// reach it in that order.
    func start(
        _ r: Record, store: any ElementStore, live: LiveRequests, finish: @escaping @Sendable ([Value]) -> Void
    ) {
        let ref = r["ref"]
        guard case .string(let entity)? = r["entity"] else {
            return finish([failure(r, "an entity must be a non-empty string", ref: ref)])
        }
        // A live request made while the write was in flight still gets its re-query, under
        // the entity's lock as on the async path.
        let done: @Sendable (Value) -> Void = { action in
            guard live.wrote(entity) else { return finish([action]) }
            Task {
                let held = await live.lockIfLive(entity)
                defer { held?.open() }
                finish([action] + (await live.refresh(entity, store: store)))
            }
        }
        switch self {
        case .save:
            let element = r["element"] ?? .null
            if let error = keyError(r) { return finish([saveFailed(entity, element, error, ref)]) }
            store.save(entity: entity, element: element) { result in
                switch result {
                case .success(let stored): done(saved(entity, stored, ref))
                case .failure(let error): finish([saveFailed(entity, element, error, ref)])
                }
            }
        case .delete:
            let (element, id) = deleteTarget(r)
            if let error = keyError(r) { return finish([deleteFailed(entity, element, error, ref)]) }
            store.delete(entity: entity, id: id) { result in
                switch result {
                case .success(let removed): done(deleted(entity, r["element"] ?? removed ?? element, ref))
                case .failure(let error): finish([deleteFailed(entity, element, error, ref)])
                }
            }
        case .request, .cancelRequest:
            finish([failure(r, "not a write", ref: ref)])
        }
    }
}
