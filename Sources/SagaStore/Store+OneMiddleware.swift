extension Store {
    /// Dispatches `action` as ``dispatch(_:)`` does in a store whose only middleware calls
    /// `before`, passes the action on and calls `after`: the same calls, in the same order,
    /// without going through the chain's closures.
    ///
    /// For the owner of such a store, which has the two halves of its middleware at hand (the
    /// saga interpreter's own store: see `ValueStoreBinding`): the chain's closures, their
    /// reabstraction thunks and the unowned reference to the store would be a noticeable cost
    /// at every dispatch.
    ///
    /// As in ``dispatch(_:)``, an action dispatched while the store is processing one is
    /// queued behind it, and goes through the chain.
    @inlinable
    package func dispatch(_ action: Action, before: () -> Void, after: () -> Void) {
        if isProcessing {
            queue.append(action)
            return
        }
        isProcessing = true
        before()
        reduce(action)
        after()
        finishProcessing()
    }
}
