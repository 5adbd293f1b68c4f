/// A Redux store: one state, changed only by dispatching actions through a middleware chain
/// into the reducer.
///
/// Dispatch is re-entrant in the Redux way, with one difference that sagas rely on: an
/// action dispatched while another is being processed (by a middleware, a subscriber or a
/// reducer's observer) is queued behind it, never processed in the middle of it. Processing
/// one entry runs the middleware chain, then the reducer, then the subscribers.
///
/// ```swift
/// let store = Store(initialState: 0, reducer: { (state: inout Int, action: String) in
///     if action == "increment" { state += 1 }
/// })
/// store.dispatch("increment")
/// store.state  // 1
/// ```
///
/// A store lives on one actor: the one it is made on (the main actor, for an app's UI store).
/// It is not `Sendable`, so the compiler keeps its `dispatch` and `state` there. Work on other
/// threads sends its actions through ``dispatcher``, which hops to that actor. Its queue and
/// state opt out of dynamic exclusivity checking (they are never accessed in overlap), which
/// saves two runtime calls per access on the dispatch path.
public final class Store<State, Action> {
    /// The reducer: the only code that changes the state.
    public typealias Reducer = (inout State, Action) -> Void

    /// The current state.
    public var state: State { storedState }
    @exclusivity(unchecked) @usableFromInline var storedState: State

    @usableFromInline let reducer: Reducer
    /// The dispatch function with every middleware applied, built once.
    @exclusivity(unchecked) @usableFromInline var chain: ((Action) -> Void)?
    @usableFromInline var middlewares: [Middleware<State, Action>]
    /// Subscribers in the order they subscribed (Redux calls them in that order), with
    /// their tokens.
    @exclusivity(unchecked) @usableFromInline var subscribers: [(token: Int, call: (State) -> Void)] = []
    var nextSubscriberID = 0
    @exclusivity(unchecked) @usableFromInline var queue = RingBuffer<Action>()
    @exclusivity(unchecked) @usableFromInline var isProcessing = false
    /// Called each time a dispatch has processed its queue and the store is idle again.
    @exclusivity(unchecked) @usableFromInline var idleObservers: [(token: Int, call: () -> Void)] = []
    private var nextIdleObserverID = 0
    /// The actor the store lives on, for ``dispatcher``: weak, as an actor may own its store.
    weak var isolation: (any Actor)?
    /// Made by the first use of ``dispatcher``.
    var inbox: StoreInbox<Action>?
    /// An object that lives exactly as long as the store, freed with it: the saga middleware's
    /// sentinel, which tells the interpreters bound to the store that it is gone.
    package var companion: AnyObject?

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - initialState: the state before any action.
    ///   - reducer: applies an action to the state.
    ///   - middleware: the chain, outermost first: the first middleware sees an action first.
    ///   - isolation: the actor the store lives on: by default the caller's. A store made
    ///     outside any actor is taken to live on the main actor, where ``dispatcher`` delivers:
    ///     make it on the actor that uses it (or pass that actor, or call ``bind(to:)`` in the
    ///     actor's `init`), or it is raced.
    public init(
        initialState: State, reducer: @escaping Reducer, middleware: [Middleware<State, Action>] = [],
        isolation: (any Actor)? = #isolation
    ) {
        self.storedState = initialState
        self.reducer = reducer
        self.middlewares = middleware
        self.isolation = isolation
    }

    /// Dispatches an action: runs it through the middleware chain and the reducer now, or,
    /// if the store is already processing an action, queues it behind that one.
    @inlinable
    public func dispatch(_ action: Action) {
        if isProcessing {
            queue.append(action)
            return
        }
        isProcessing = true
        if chain == nil { buildChain() }
        // Called where it is stored, not through a local: a local of the concrete function type
        // makes the specialised code wrap the stored (generic) closure in a new reabstraction
        // thunk, one allocation per dispatch. The action itself
        // goes straight through (the queue is empty when the store is idle); only those
        // dispatched while it is processed wait in the queue.
        chain?(action)
        finishProcessing()
    }

    /// Processes the actions dispatched meanwhile, through the chain, then lets the idle
    /// observers know: the end of every `dispatch`.
    @inlinable
    func finishProcessing() {
        if !queue.isEmpty {
            if chain == nil { buildChain() }
            while let next = queue.popFirst() {
                chain?(next)
            }
        }
        isProcessing = false
        if !idleObservers.isEmpty {
            for observer in idleObservers { observer.call() }
        }
    }

    /// Calls `observer` each time a `dispatch` has processed every action it queued, before
    /// `dispatch` returns.
    ///
    /// The saga middleware uses it to resume the sagas an app's own dispatch woke, within that
    /// dispatch, as redux-saga does; an observer may dispatch.
    ///
    /// - Returns: a token for ``removeIdleObserver(_:)``.
    @discardableResult
    public func whenIdle(_ observer: @escaping () -> Void) -> Int {
        nextIdleObserverID += 1
        idleObservers.append((nextIdleObserverID, observer))
        return nextIdleObserverID
    }

    /// Stops calling the observer `whenIdle` returned `token` for.
    public func removeIdleObserver(_ token: Int) {
        idleObservers.removeAll { $0.token == token }
    }

    /// Applies the reducer and notifies subscribers: the innermost step of the chain.
    ///
    /// Inlinable, as ``buildChain()`` is, so that a client's `Store<S, A>` gets a specialised
    /// chain: unspecialised, each action paid for generic function-type metadata look-ups.
    @inlinable
    func reduce(_ action: Action) {
        reducer(&storedState, action)
        if !subscribers.isEmpty {
            for subscriber in subscribers { subscriber.call(storedState) }
        }
    }

    @inlinable
    func buildChain() {
        var next: (Action) -> Void = { [unowned self] action in self.reduce(action) }
        let api = MiddlewareAPI(store: self)
        for middleware in middlewares.reversed() {
            next = middleware.body(api, next)
        }
        chain = next
    }
}
