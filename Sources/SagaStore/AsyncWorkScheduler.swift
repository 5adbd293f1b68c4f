/// Runs asynchronous work for a middleware (a database write, a request) off the store's
/// thread, and dispatches the actions the work produces when it finishes.
///
/// The saga interpreter implements this so that such work counts as "in flight": under
/// virtual time the program is not idle until it completes, and completions are dispatched in
/// the order the work was started. A plain app can implement it with a `Task` that hops back
/// to the store's thread (``QueueWorkScheduler`` does that with a dispatch queue).
///
/// `schedule` may be called from any thread.
public protocol AsyncWorkScheduler<Action>: AnyObject, Sendable {
    associatedtype Action: Sendable

    /// Starts `work`; when it finishes, dispatches the actions it returned, in order.
    func schedule(_ work: @escaping @Sendable () async -> [Action])
}
