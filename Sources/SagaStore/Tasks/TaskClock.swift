/// The clock task work sleeps on, through ``TaskContext/clock``: real in an app
/// (``ContinuousTaskClock``), virtual in tests (``VirtualTaskClock``), so that tests never
/// really wait.
public protocol TaskClock: Sendable {
    /// Suspends for `duration`.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while asleep.
    func sleep(for duration: Duration) async throws
}
