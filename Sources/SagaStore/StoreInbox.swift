import Synchronization

/// The actions sent to a store through its ``StoreDispatcher``, waiting for the store's actor:
/// one hop drains them all, in order.
///
/// Unchecked `Sendable`: its state is under a lock, and the actions that cross threads in it
/// come from a ``StoreDispatcher``, which takes only `Sendable` ones.
final class StoreInbox<Action>: @unchecked Sendable {
    /// An action on its way (see the type's note on `Sendable`).
    private struct Sent: @unchecked Sendable {
        let action: Action
    }

    private struct Pending: ~Copyable {
        var actions: [Sent] = []
        /// Whether a hop to the store's actor is on its way, to drain what comes.
        var draining = false
    }

    private let pending = Mutex(Pending())
    /// The store's actor: weak, as the store holds the inbox and the actor may hold the store.
    ///
    /// Once it is gone, nothing sent is dispatched.
    private weak let actor: (any Actor)?
    /// Dispatches into the store, if it is still there.
    private let target: Target

    /// Holds the store's `dispatch`, which is called only on the store's actor
    /// (``drain(isolation:)``).
    private final class Target {
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
        let sent = Sent(action: action)
        let hop = pending.withLock { p -> Bool in
            p.actions.append(sent)
            if p.draining { return false }
            p.draining = true
            return true
        }
        guard hop, let actor = self.actor else { return }
        Task { await self.drain(isolation: actor) }
    }

    /// Dispatches every queued action, oldest first, including those sent meanwhile.
    private func drain(isolation: isolated any Actor) {
        while true {
            let batch = pending.withLock { p -> [Sent] in
                if p.actions.isEmpty {
                    p.draining = false
                    return []
                }
                defer { p.actions.removeAll(keepingCapacity: true) }
                return p.actions
            }
            if batch.isEmpty { return }
            for sent in batch { target.dispatch(sent.action) }
        }
    }
}
