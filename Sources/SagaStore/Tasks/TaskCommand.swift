/// What an app's action asks of ``TaskMiddleware``.
///
/// An app wraps it in one case of its action type and tells the middleware how to find it.
///
/// ```swift
/// enum AppAction: Sendable {
///     case task(TaskCommand<AppState, AppAction>)
///     case songsLoaded([Song])
/// }
/// let tasks = TaskMiddleware<AppState, AppAction>(thread: QueueStoreThread(queue: .main)) {
///     if case .task(let command) = $0 { command } else { nil }
/// }
/// store.dispatch(.task(.cancel("search")))
/// ```
public enum TaskCommand<State, Action: Sendable>: Sendable {
    /// Starts a task.
    case run(TaskAction<State, Action>)
    /// Cancels every task in flight with this id.
    case cancel(TaskID)
    /// Cancels every task in flight.
    case cancelAll
}
