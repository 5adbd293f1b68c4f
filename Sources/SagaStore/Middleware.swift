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

    /// Creates a middleware from its body.
    public init(_ body: @escaping (MiddlewareAPI<State, Action>, @escaping (Action) -> Void) -> (Action) -> Void) {
        self.body = body
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
