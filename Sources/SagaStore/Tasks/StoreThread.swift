/// The store's thread, as seen by work running elsewhere: how a task's dispatches and state
/// reads hop onto it, and (optionally) where the tasks themselves run.
///
/// The store is confined to one thread; ``TaskMiddleware`` touches it only inside ``post(_:)``
/// and ``run(_:)``.
/// ``QueueStoreThread`` is a dispatch queue (the main queue for an app's UI store);
/// ``ManualStoreThread`` is a loop a test pumps by hand.
public protocol StoreThread: Sendable {
    /// Runs `body` on the store's thread later, in the order of the calls, without waiting
    /// for it. Called from any thread.
    func post(_ body: @escaping @Sendable () -> Void)

    /// Runs `body` on the store's thread and returns its result. Called from any thread.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T

    /// Where task work should run, or `nil` for Swift's global executor.
    var taskExecutor: (any TaskExecutor)? { get }
}

extension StoreThread {
    /// Task work runs on Swift's global executor.
    public var taskExecutor: (any TaskExecutor)? { nil }
}
