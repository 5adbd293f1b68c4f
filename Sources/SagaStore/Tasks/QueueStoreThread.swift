import Dispatch

/// A store that lives on a serial dispatch queue, such as the main queue of an app.
///
/// ```swift
/// let tasks = TaskMiddleware<AppState, AppAction>(thread: QueueStoreThread(queue: .main)) { … }
/// ```
public struct QueueStoreThread: StoreThread {
    /// The store's queue; it must be serial.
    public let queue: DispatchQueue

    /// The thread of a store living on `queue`.
    public init(queue: DispatchQueue) {
        self.queue = queue
    }

    public func post(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
