/// Runs the async work that actions carry (thunks, in async/await) and keeps track of it.
///
/// An app wraps a ``TaskCommand`` in one case of its action type and tells the middleware how
/// to find it. Commands stop here: they never reach the reducer. Other actions pass on.
///
/// ```swift
/// let tasks = TaskMiddleware<AppState, AppAction>(
///     onError: { id, error in log.error("task \(id) failed: \(error)") },
///     extract: { if case .task(let command) = $0 { command } else { nil } })
/// let store = Store(initialState: AppState(), reducer: appReducer,
///                   middleware: [tasks.makeMiddleware()])
/// store.dispatch(.task(.run(TaskAction(id: "search", policy: .cancelInFlight) { context in
///     try await context.sleep(for: .milliseconds(300))  // debounce
///     let text = try await context.read { $0.searchText }
///     await context.dispatch(.results(try await api.search(text)))
/// })))
/// ```
///
/// A task is *in flight* from the moment its command is processed until its work returns or
/// throws, or it is cancelled; ``runningTaskIDs`` lists them. Cancelling is immediate and
/// final: the Swift task is cancelled (its sleeps throw) and, from then on, nothing it
/// dispatches lands, even an action already on its way to the store's thread.
///
/// Errors the work throws go to `onError`, on the store's thread; `CancellationError`, and any
/// error a cancelled task throws, are not reported.
///
/// The store keeps its middleware, and so this object, alive. Like the store, it is confined
/// to the store's thread. When it goes away (usually with its store) it cancels every task.
public final class TaskMiddleware<State, Action: Sendable> {
    /// The store's thread, which dispatches and reads hop to: `nil` for the store's actor
    /// (see ``Store/init(initialState:reducer:middleware:isolation:)``).
    public let thread: (any StoreThread)?
    /// The clock handed to the work.
    public let clock: any TaskClock
    @usableFromInline let onError: (TaskID, any Error) -> Void
    @usableFromInline let extract: (Action) -> TaskCommand<State, Action>?
    let registry = TaskRegistry()

    /// A task middleware.
    ///
    /// - Parameters:
    ///   - thread: the store's thread; by default the store's actor. A test passes a
    ///     ``ManualStoreThread`` to run the work step by step.
    ///   - clock: the clock the work sleeps on.
    ///   - onError: told of every error the work throws, except cancellation; called on the
    ///     store's thread.
    ///   - extract: the task command an action carries, if any.
    public init(
        thread: (any StoreThread)? = nil, clock: any TaskClock = ContinuousTaskClock(),
        onError: @escaping (TaskID, any Error) -> Void = { _, _ in },
        extract: @escaping (Action) -> TaskCommand<State, Action>?
    ) {
        self.thread = thread
        self.clock = clock
        self.onError = onError
        self.extract = extract
    }

    deinit {
        registry.cancelAll()
    }

    /// The middleware to install in a store.
    ///
    /// Inlinable, so that every action an app dispatches is checked for a command in code
    /// specialised for the app's types: unspecialised, each one would look up the generic
    /// metadata of the command type, which costs more than the rest of the dispatch.
    @inlinable
    public func makeMiddleware() -> Middleware<State, Action> {
        Middleware { api, next in
            let thread = self.thread ?? ActorStoreThread(actor: api.isolation ?? MainActor.shared)
            let link = StoreLink(api.makeLink(), thread: thread, onError: self.onError)
            return { action in
                guard let command = self.extract(action) else { return next(action) }
                self.perform(command, link: link)
            }
        }
    }

    /// Carries out a command an action held.
    @usableFromInline
    func perform(_ command: TaskCommand<State, Action>, link: StoreLink<State, Action>) {
        switch command {
        case .run(let task): start(task, link: link)
        case .cancel(let id): cancel(id: id)
        case .cancelAll: cancelAll()
        }
    }

    /// The ids of the tasks in flight (for tests and debugging).
    public var runningTaskIDs: Set<TaskID> {
        registry.runningIDs
    }

    /// How many tasks are in flight.
    public var runningTaskCount: Int {
        registry.runningCount
    }

    /// Cancels every task in flight with `id`, as `.cancel(id)` does.
    public func cancel(id: TaskID) {
        registry.cancel(id: id)
    }

    /// Cancels every task in flight, as `.cancelAll` does.
    public func cancelAll() {
        registry.cancelAll()
    }
}
