/// A middleware: sees each action on its way to the reducer, and may pass it on (`next`),
/// hold it, replace it, or dispatch others.
///
/// ```swift
/// let logger = Middleware<Int, String> { api, next in
///     { action in
///         print("before", api.state)
///         next(action)
///         print("after", api.state)
///     }
/// }
/// ```
public struct Middleware<State, Action> {
    /// Given the store's API and the next step of the chain, returns this step.
    public let body: (MiddlewareAPI<State, Action>, @escaping (Action) -> Void) -> (Action) -> Void
    /// The actions the middleware may act on, if it says: any other action its step only
    /// passes on, at once and unchanged, so that a dispatcher that knows may skip the step
    /// (see ``init(actingOn:_:)``). `nil`: it may act on any action.
    public let actsOn: ((Action) -> Bool)?

    /// Creates a middleware from its body.
    public init(_ body: @escaping (MiddlewareAPI<State, Action>, @escaping (Action) -> Void) -> (Action) -> Void) {
        self.body = body
        self.actsOn = nil
    }

    /// Creates a middleware that acts only on the actions for which `actsOn` is true: for any
    /// other, its step must call `next` with the action and do nothing else. A dispatcher may
    /// then leave the step out for those actions, saving the trip through its closure (the
    /// saga interpreter's store does, for its own actions). `actsOn` may say true for more
    /// actions than the middleware acts on, never for fewer.
    ///
    /// ```swift
    /// let audit = Middleware<AppState, AppAction>(actingOn: \.isPayment) { api, next in
    ///     { action in
    ///         next(action)
    ///         if action.isPayment { log(action, api.state) }
    ///     }
    /// }
    /// ```
    public init(
        actingOn actsOn: @escaping (Action) -> Bool,
        _ body: @escaping (MiddlewareAPI<State, Action>, @escaping (Action) -> Void) -> (Action) -> Void
    ) {
        self.body = body
        self.actsOn = actsOn
    }
}

/// What a middleware may do with the store: read the state and dispatch (queued behind the
/// action being processed).
public struct MiddlewareAPI<State, Action> {
    @usableFromInline unowned let store: Store<State, Action>

    @usableFromInline
    init(store: Store<State, Action>) {
        self.store = store
    }

    /// The current state.
    public var state: State { store.state }

    /// Dispatches an action; it is processed after the current one.
    public func dispatch(_ action: Action) {
        store.dispatch(action)
    }
}

extension MiddlewareAPI where Action: Sendable {
    /// Dispatches into the store from any thread or task, for work the middleware starts
    /// elsewhere: see ``StoreDispatcher``.
    public var dispatcher: StoreDispatcher<Action> { store.dispatcher }
}
