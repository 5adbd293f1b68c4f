import Foundation

extension Store {
    /// The inbox behind ``dispatcher``, made by its first use; every use shares it, so that
    /// actions sent through any of them keep one order.
    var sharedInbox: StoreInbox<Action> {
        if let inbox { return inbox }
        // A store made outside any actor is the main actor's: it must be used there.
        assert(
            isolation != nil || Thread.isMainThread,
            "a store made outside any actor belongs to the main actor, but is used off it: make it on the actor "
                + "that uses it (in an actor, in an async init), or pass that actor as `isolation:`")
        // Weak: an action sent after the store has gone is dropped. Made only here, as a weak
        // reference makes every retain of the store dearer.
        let made = StoreInbox<Action>(actor: isolation ?? MainActor.shared) { [weak self] action in
            self?.dispatch(action)
        }
        inbox = made
        return made
    }
}

extension Store where Action: Sendable {
    /// Dispatches into this store from any thread or task, on the store's actor, in the order
    /// sent: see ``StoreDispatcher``.
    public var dispatcher: StoreDispatcher<Action> {
        let inbox = sharedInbox
        return StoreDispatcher(UncheckedSender(send: { action in inbox.send(action) }))
    }
}
