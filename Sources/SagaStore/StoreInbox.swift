import Synchronization

/// The actions sent to a store through its ``StoreDispatcher``, waiting for the store's actor:
/// one hop drains them all, in order.
final class StoreInbox<Action: Sendable>: Sendable {
    private struct Pending: ~Copyable {
        var actions: [Action] = []
        /// Whether a hop to the store's actor is on its way, to drain what comes.
        var draining = false
    }

    private let pending = Mutex(Pending())
    /// The store's actor.
    private let actor: any Actor
    /// Dispatches into the store, if it is still there.
    private let target: Target

    /// Holds the store's `dispatch`. Unchecked: it crosses threads in the inbox, but is
    /// called only on the store's actor (``drain(isolation:)``).
    private final class Target: @unchecked Sendable {
        let dispatch: (Action) -> Void

        init(_ dispatch: @escaping (Action) -> Void) {
            self.dispatch = dispatch
        }
    }

    init(actor: any Actor, dispatch: @escaping (Action) -> Void) {
        self.actor = actor
        self.target = Target(dispatch)
    }

    /// Queues `action`, and starts a hop to the store's actor unless one is on its way.
    func send(_ action: Action) {
        let hop = pending.withLock { p -> Bool in
            p.actions.append(action)
            if p.draining { return false }
            p.draining = true
            return true
        }
        guard hop else { return }
        let actor = self.actor
        Task { await self.drain(isolation: actor) }
    }

    /// Dispatches every queued action, oldest first, including those sent meanwhile.
    private func drain(isolation: isolated any Actor) {
        while true {
            let batch = pending.withLock { p -> [Action] in
                if p.actions.isEmpty {
                    p.draining = false
                    return []
                }
                defer { p.actions.removeAll(keepingCapacity: true) }
                return p.actions
            }
            if batch.isEmpty { return }
            for action in batch { target.dispatch(action) }
        }
    }
}
