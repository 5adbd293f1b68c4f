/// Asynchronous work an action carries into ``TaskMiddleware``: a thunk in async/await.
///
/// The work runs in a Swift `Task`, off the store's thread. It reads the state and dispatches
/// through its ``TaskContext``, which hops to the store's thread each time.
///
/// ```swift
/// let load = TaskAction<AppState, AppAction>(id: "songs", policy: .cancelInFlight) { context in
///     await context.dispatch(.songsLoading)
///     let query = try await context.read { $0.searchText }
///     let songs = try await api.songs(matching: query)
///     await context.dispatch(.songsLoaded(songs))
/// }
/// store.dispatch(.task(.run(load)))
/// ```
public struct TaskAction<State, Action: Sendable>: Sendable {
    /// The work's signature: it gets a context and may throw (see ``TaskMiddleware`` for
    /// where errors go).
    public typealias Work = @Sendable (TaskContext<State, Action>) async throws -> Void

    /// The task's name, for cancelling it and for ``policy``.
    public var id: TaskID
    /// What starting it does to tasks in flight with the same id.
    public var policy: TaskPolicy
    /// Who keeps it alive.
    public var ownership: TaskOwnership
    /// The work.
    public var work: Work

    /// A task.
    ///
    /// - Parameters:
    ///   - id: its name; by default one no other task has.
    ///   - policy: what starting it does to tasks with the same id; by default nothing.
    ///   - ownership: who keeps it alive; by default the middleware.
    ///   - work: the work, run off the store's thread.
    public init(
        id: TaskID = .unique(), policy: TaskPolicy = .parallel, ownership: TaskOwnership = .retained,
        work: @escaping Work
    ) {
        self.id = id
        self.policy = policy
        self.ownership = ownership
        self.work = work
    }
}
