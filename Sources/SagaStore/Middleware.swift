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
    /// (see ``init(actingOn:_:)``).
    ///
    /// `nil`: it may act on any action.
    public let actsOn: ((Action) -> Bool)?

    /// Creates a middleware from its body.
    public init(_ body: @escaping (MiddlewareAPI<State, Action>, @escaping (Action) -> Void) -> (Action) -> Void) {
        self.body = body
        self.actsOn = nil
    }

    /// Creates a middleware that acts only on the actions for which `actsOn` is true: for any
    /// other, its step must call `next` with the action and do nothing else.
    ///
    /// A dispatcher may then leave the step out for those actions, saving the trip through its
    /// closure (the saga interpreter's store does, for its own actions). `actsOn` may say true
    /// for more actions than the middleware acts on, never for fewer.
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
/// action being processed), and, for work it starts elsewhere, dispatch from any thread.
public struct MiddlewareAPI<State, Action> {
    @usableFromInline let readState: () -> State
    @usableFromInline let dispatchNow: (Action) -> Void
    /// How to send actions from any thread (see ``StoreDispatcher``): made on demand.
    let makeSender: () -> (Action) -> Void
    /// Reads and dispatches through a weak reference to the store, for work that may outlive
    /// it: made on demand, as a weak reference makes every retain of the store dearer.
    @usableFromInline let makeLink: () -> (read: () -> State?, dispatch: (Action) -> Void)
    /// The actor the store lives on (`nil`: the main actor, see ``Store``).
    @usableFromInline let isolation: (any Actor)?

    @usableFromInline
    init(store: Store<State, Action>) {
        isolation = store.isolation
        readState = { [unowned store] in store.state }
        dispatchNow = { [unowned store] action in store.dispatch(action) }
        makeSender = { [unowned store] in
            let inbox = store.sharedInbox
            return { action in inbox.send(action) }
        }
        makeLink = { [unowned store] in
            weak let weakStore = store
            return (read: { weakStore?.state }, dispatch: { action in weakStore?.dispatch(action) })
        }
    }

    /// The API of a middleware lifted into a wider store (see ``Middleware/lifted(state:action:)``).
    init<GlobalState, GlobalAction>(
        lifting global: MiddlewareAPI<GlobalState, GlobalAction>, state: @escaping (GlobalState) -> State,
        action: ActionPath<GlobalAction, Action>
    ) {
        let read = global.readState
        let dispatch = global.dispatchNow
        let embed = action.embed
        isolation = global.isolation
        readState = { state(read()) }
        dispatchNow = { dispatch(embed($0)) }
        makeSender = {
            let send = global.makeSender()
            return { send(embed($0)) }
        }
        makeLink = {
            let link = global.makeLink()
            return (read: { link.read().map(state) }, dispatch: { link.dispatch(embed($0)) })
        }
    }

    /// The current state.
    public var state: State { readState() }

    /// Dispatches an action; it is processed after the current one.
    public func dispatch(_ action: Action) {
        dispatchNow(action)
    }
}

extension MiddlewareAPI where Action: Sendable {
    /// Dispatches into the store from any thread or task, for work the middleware starts
    /// elsewhere: see ``StoreDispatcher``.
    public var dispatcher: StoreDispatcher<Action> {
        StoreDispatcher(UncheckedSender(send: makeSender()))
    }
}
