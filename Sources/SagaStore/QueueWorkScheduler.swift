import Dispatch
import Synchronization

/// Runs middleware work in Swift `Task`s and dispatches its results on a dispatch queue, in
/// the order the work was started: for a store that lives on that queue's thread.
///
/// A store's own ``Store/dispatcher`` does this without a queue (a persistence controller's
/// `makeMiddleware()` uses it); this scheduler is for middleware that takes a scheduler.
/// `queue` must be serial. As results wait for those of the work started before them, one
/// piece of work that never ends (a long poll) holds back every result after it.
///
/// ```swift
/// let scheduler = QueueWorkScheduler<AppAction>(queue: .main)
/// let store = Store(initialState: AppState(), reducer: appReducer, middleware: [audit.makeMiddleware(scheduler: scheduler)])
/// scheduler.deliver = { [unowned store] action in store.dispatch(action) }
/// ```
public final class QueueWorkScheduler<Action: Sendable>: AsyncWorkScheduler, @unchecked Sendable {
    /// The queue results are dispatched on.
    public let queue: DispatchQueue
    /// Dispatches one result into the store; called on ``queue``.
    ///
    /// Set it once, before the first action (it is read on `queue` only).
    public var deliver: ((Action) -> Void)?

    /// The number of the next piece of work, the next to deliver, and the results that
    /// finished before their turn.
    private struct Order: ~Copyable {
        var started = 0
        var delivered = 0
        var early: [Int: [Action]] = [:]
    }

    private let order = Mutex(Order())

    /// A scheduler delivering on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func schedule(_ work: @escaping @Sendable () async -> [Action]) {
        let number = order.withLock { o -> Int in
            defer { o.started += 1 }
            return o.started
        }
        Task { [self] in
            let actions = await work()
            queue.async { self.finished(number, actions) }
        }
    }

    /// On ``queue``: delivers the results of `number`, and of those after it that finished
    /// early, once every piece before it is delivered.
    private func finished(_ number: Int, _ actions: [Action]) {
        let due = order.withLock { o -> [[Action]] in
            o.early[number] = actions
            var due: [[Action]] = []
            while let next = o.early.removeValue(forKey: o.delivered) {
                due.append(next)
                o.delivered += 1
            }
            return due
        }
        for actions in due {
            for action in actions { deliver?(action) }
        }
    }
}
