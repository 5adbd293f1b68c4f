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

    /// Starts work that reports its own end: `work` is called once, at once, on the calling
    /// thread, and must call `finish` exactly once, from any thread, with the actions to
    /// dispatch.
    ///
    /// For work that is already asynchronous without Swift concurrency (a file store's writer
    /// thread calling back after its sync), this saves the `Task` that ``schedule(_:)``
    /// needs, and the thread switches into and out of it. The default implementation wraps
    /// `work` in ``schedule(_:)``.
    ///
    /// ```swift
    /// scheduler.schedule(reporting: { finish in
    ///     writer.append(record) { result in finish([.saved(result)]) }
    /// })
    /// ```
    func schedule(reporting work: (_ finish: @escaping @Sendable ([Action]) -> Void) -> Void)
}

extension AsyncWorkScheduler {
    public func schedule(reporting work: (_ finish: @escaping @Sendable ([Action]) -> Void) -> Void) {
        let box = ReportedActions<Action>()
        work { actions in box.fulfil(actions) }
        schedule { await box.value() }
    }
}
