extension Store where Action: Sendable {
    /// Dispatches into this store from any thread or task, on the store's actor, in the order
    /// sent: see ``StoreDispatcher``. Every call returns the same dispatcher.
    public var dispatcher: StoreDispatcher<Action> {
        if let inbox = inbox as? StoreInbox<Action> { return StoreDispatcher(inbox: inbox) }
        let made = StoreInbox<Action>(actor: isolation ?? MainActor.shared) { [weak self] action in
            self?.dispatch(action)
        }
        inbox = made
        return StoreDispatcher(inbox: made)
    }
}
