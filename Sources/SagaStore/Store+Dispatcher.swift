import Foundation

extension Store {
    /// The inbox behind ``dispatcher``, made by its first use; every use shares it, so that
    /// actions sent through any of them keep one order.
    var sharedInbox: StoreInbox<Action> {
        if let inbox { return inbox }
        // A store made outside any actor is the main actor's: it must be used there. Used off
        // it, the dispatcher's deliveries on the main actor would race its user, so a release
        // build stops here too rather than run on.
        precondition(
            isolation != nil || Thread.isMainThread,
            "a store made outside any actor belongs to the main actor, but is used off it: make it on the actor "
                + "that uses it (mark a test or function that makes one @MainActor), pass that actor as "
                + "`isolation:`, or call `bind(to:)` (in an actor's init)")
        // Weak: an action sent after the store has gone is dropped. Made only here, as a weak
        // reference makes every retain of the store dearer.
        let made = StoreInbox<Action>(actor: isolation ?? MainActor.shared) { [weak self] action in
            self?.dispatch(action)
        }
        inbox = made
        return made
    }
}

extension Store {
    /// Makes `actor` the store's actor: the one ``dispatcher`` delivers on, and where
    /// `states()` lets go of its subscription.
    ///
    /// For a store made where `#isolation` is `nil`, such as an actor's synchronous `init`:
    /// call it there, once every stored property is set, before the store is used.
    ///
    /// ```swift
    /// actor Library {
    ///     let store: Store<LibraryState, LibraryAction>
    ///
    ///     init() {
    ///         store = Store(initialState: LibraryState(), reducer: libraryReducer)
    ///         store.bind(to: self)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter actor: the actor that owns the store (held weakly, as the store's actor is).
    public func bind(to actor: any Actor) {
        assert(
            inbox == nil || isolation === actor,
            "bind(to:) after the store's dispatcher was made on another actor: bind it before its first use")
        isolation = actor
    }
}

extension Store {
    /// Makes `actor` the store's actor when it has none (made where `#isolation` is `nil`, and
    /// not bound) and its dispatcher is not made yet; otherwise does nothing.
    ///
    /// For code that knows it runs on the store's actor, such as an interpreter starting over
    /// the store.
    package func adoptIfUnbound(_ actor: any Actor) {
        if isolation == nil, inbox == nil { isolation = actor }
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
