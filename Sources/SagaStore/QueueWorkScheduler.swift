import Dispatch

/// Runs middleware work in a Swift `Task` and dispatches its results on a dispatch queue:
/// for a store that lives on that queue's thread (the main queue for an app's UI store), as
/// the seed's `receive(on: DispatchQueue.main)` did.
///
/// ```swift
/// let scheduler = QueueWorkScheduler<AppAction>(queue: .main)
/// let store = Store(initialState: AppState(), reducer: appReducer,
///                   middleware: [songs.makeMiddleware(scheduler: scheduler)])
/// scheduler.deliver = { [unowned store] action in store.dispatch(action) }
/// ```
public final class QueueWorkScheduler<Action: Sendable>: AsyncWorkScheduler, @unchecked Sendable {
    /// The queue results are dispatched on.
    public let queue: DispatchQueue
    /// Dispatches one result into the store; called on ``queue``. Set it once, before the
    /// first action (it is read on `queue` only).
    public var deliver: ((Action) -> Void)?

    /// A scheduler delivering on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func schedule(_ work: @escaping @Sendable () async -> [Action]) {
        Task { [self] in
            let actions = await work()
            queue.async {
                for action in actions { self.deliver?(action) }
            }
        }
    }
}
