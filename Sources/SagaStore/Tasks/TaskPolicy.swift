/// What starting a task does to running tasks with the same ``TaskID``.
///
/// ```swift
/// // Typing in a search field: only the latest query's results may land.
/// TaskAction(id: "search", policy: .cancelInFlight) { context in … }
/// ```
public enum TaskPolicy: Sendable, Hashable {
    /// Runs beside any others with the same id.
    case parallel
    /// Cancels every task with the same id (their pending dispatches are dropped), then starts.
    case cancelInFlight
    /// Starts once every task with the same id that was in flight when it arrived has ended.
    case queue
    /// Is dropped, its work never run, when a task with the same id is in flight.
    case dropIfRunning
}
