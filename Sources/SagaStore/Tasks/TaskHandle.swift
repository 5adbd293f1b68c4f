import Synchronization

/// The caller's hold on ``TaskOwnership/owned(_:)`` tasks: cancelling it, or releasing the
/// last reference to it, cancels every task started with it.
///
/// One handle may own many tasks, like a screen's bag of subscriptions. A task started with
/// a handle that is already cancelled never runs.
///
/// ```swift
/// final class SongListScreen {
///     let tasks = TaskHandle()   // the screen's tasks end with the screen
///     func appear() {
///         store.dispatch(.task(.run(TaskAction(ownership: .owned(tasks)) { context in … })))
///     }
/// }
/// ```
public final class TaskHandle: Sendable {
    private struct Holdings {
        var isCancelled = false
        /// How to cancel each task still in flight, by its record's serial number.
        var cancellers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let holdings = Mutex(Holdings())

    /// A handle owning no task yet.
    public init() {}

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        holdings.withLock { $0.isCancelled }
    }

    /// Cancels every task this handle owns, and any later started with it.
    ///
    /// Safe to call more than once, from any thread.
    public func cancel() {
        let cancellers = holdings.withLock { h -> [@Sendable () -> Void] in
            h.isCancelled = true
            defer { h.cancellers = [:] }
            return h.cancellers.sorted { $0.key < $1.key }.map(\.value)
        }
        for cancel in cancellers { cancel() }
    }

    deinit {
        cancel()
    }

    /// Takes on a task; `false` (and the task must not run) when the handle is cancelled.
    func adopt(serial: UInt64, canceller: @escaping @Sendable () -> Void) -> Bool {
        holdings.withLock { h in
            if h.isCancelled { return false }
            h.cancellers[serial] = canceller
            return true
        }
    }

    /// Lets go of a task that has ended.
    func release(serial: UInt64) {
        _ = holdings.withLock { $0.cancellers.removeValue(forKey: serial) }
    }

    /// How many tasks the handle owns that are still in flight.
    public var taskCount: Int {
        holdings.withLock { $0.cancellers.count }
    }
}
