/// The real clock: sleeps on Swift's `ContinuousClock`.
public struct ContinuousTaskClock: TaskClock {
    /// The real clock.
    public init() {}

    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}
