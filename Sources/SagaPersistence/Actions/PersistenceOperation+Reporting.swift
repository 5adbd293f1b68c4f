import SagaCore

extension PersistenceOperation {
    /// Whether ``start(_:store:live:finish:)`` can perform `r`: a save or delete of a valid
    /// entity without a live request. The rest (requests, and writes that a live request's
    /// lock and re-query must follow) take the async ``perform(_:store:live:)``.
    func canStart(_ r: Record, live: LiveRequests) -> Bool {
        guard self == .save || self == .delete, case .string(let entity)? = r["entity"], !entity.isEmpty else {
            return false
        }
        return !live.hasLive(entity)
    }

    /// Starts the save or delete `r` (``canStart(_:live:)`` said yes) and calls `finish` once
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
        // A live request made while the write was in flight still gets its re-query.
        let done: @Sendable (Value) -> Void = { action in
            guard live.hasLive(entity) else { return finish([action]) }
            Task { finish([action] + (await live.refresh(entity, store: store))) }
        }
        switch self {
        case .save:
            let element = r["element"] ?? .null
            store.save(entity: entity, element: element) { result in
                switch result {
                case .success(let stored): done(saved(entity, stored, ref))
                case .failure(let error): finish([saveFailed(entity, element, error, ref)])
                }
            }
        case .delete:
            let (element, id) = deleteTarget(r)
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
