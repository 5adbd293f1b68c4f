/// Who keeps a task alive.
public enum TaskOwnership: Sendable {
    /// The middleware keeps the task until its work ends or it is cancelled (by id, by
    /// ``TaskPolicy/cancelInFlight``, by ``TaskMiddleware/cancelAll()``, or because the
    /// middleware, usually with its store, goes away). Fire and forget.
    case retained
    /// The caller keeps the task through `handle`: cancelling the handle, or releasing the
    /// last reference to it, cancels the task. Ties work to a screen's lifetime.
    case owned(TaskHandle)
}
