import Synchronization

/// The task that feeds the current request's results; replacing it cancels the old one.
final class RequestTasks: Sendable {
    private let current = Mutex<Task<Void, Never>?>(nil)

    func replace(_ task: Task<Void, Never>?) {
        let old = current.withLock { c -> Task<Void, Never>? in
            defer { c = task }
            return c
        }
        old?.cancel()
    }

    deinit {
        current.withLock { $0?.cancel() }
    }
}
