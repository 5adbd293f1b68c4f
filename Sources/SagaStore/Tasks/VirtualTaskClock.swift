import Synchronization

/// A clock whose time moves only when a test says so.
///
/// A sleeper wakes when the clock is advanced to or past its deadline; sleepers wake in
/// deadline order, those with the same deadline in the order they fell asleep. A cancelled
/// sleeper wakes at once with `CancellationError`. A sleep of zero or less returns at once.
///
/// ```swift
/// let clock = VirtualTaskClock()
/// thread.advance(clock, by: .seconds(5))  // see ManualStoreThread
/// clock.advance(by: .seconds(5))          // wakes the due sleepers without running them
/// ```
public final class VirtualTaskClock: TaskClock {
    private enum Sleeper {
        /// Counted, but not yet holding its continuation.
        case falling(deadline: Duration)
        case asleep(deadline: Duration, CheckedContinuation<Void, any Error>)
        /// Cancelled before it held a continuation.
        case cancelled
    }

    private struct Timeline {
        var now: Duration = .zero
        var nextOrder: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
    }

    private let timeline = Mutex(Timeline())

    /// A clock at time zero.
    public init() {}

    /// The time since the clock was made.
    public var now: Duration {
        timeline.withLock { $0.now }
    }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int {
        timeline.withLock { $0.sleepers.count }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if duration <= .zero { return }
        let order = timeline.withLock { t -> UInt64 in
            defer { t.nextOrder += 1 }
            t.sleepers[t.nextOrder] = .falling(deadline: t.now + duration)
            return t.nextOrder
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = timeline.withLock { t -> Result<Void, any Error>? in
                    switch t.sleepers[order] {
                    case .falling(let deadline) where deadline <= t.now:
                        t.sleepers[order] = nil
                        return .success(())
                    case .falling(let deadline):
                        t.sleepers[order] = .asleep(deadline: deadline, continuation)
                        return nil
                    case .cancelled, .asleep, nil:
                        t.sleepers[order] = nil
                        return .failure(CancellationError())
                    }
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let woken = timeline.withLock { t -> CheckedContinuation<Void, any Error>? in
                switch t.sleepers[order] {
                case .falling:
                    t.sleepers[order] = .cancelled
                    return nil
                case .asleep(_, let continuation):
                    t.sleepers[order] = nil
                    return continuation
                case .cancelled, nil:
                    return nil
                }
            }
            woken?.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper due by then, in deadline
    /// order.
    ///
    /// The woken tasks run when their executor runs them; to run each before the next
    /// deadline, use ``ManualStoreThread/advance(_:by:)``.
    public func advance(by duration: Duration) {
        let target = now + duration
        while wakeEarliest(notAfter: target) {}
        move(to: target)
    }

    /// Wakes the sleepers with the earliest deadline, if it is not after `target`, and moves
    /// the clock to that deadline.
    ///
    /// - Returns: whether any sleeper woke.
    func wakeEarliest(notAfter target: Duration) -> Bool {
        let woken = timeline.withLock { t -> [CheckedContinuation<Void, any Error>] in
            var earliest: Duration?
            for case .asleep(let deadline, _) in t.sleepers.values where deadline <= target {
                if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
            }
            guard let earliest else { return [] }
            if earliest > t.now { t.now = earliest }
            var due: [(UInt64, CheckedContinuation<Void, any Error>)] = []
            for (order, sleeper) in t.sleepers {
                if case .asleep(let deadline, let continuation) = sleeper, deadline == earliest {
                    due.append((order, continuation))
                }
            }
            due.sort { $0.0 < $1.0 }
            for (order, _) in due { t.sleepers[order] = nil }
            return due.map(\.1)
        }
        for continuation in woken { continuation.resume() }
        return !woken.isEmpty
    }

    /// Moves the clock to `target`, if that is later than now.
    func move(to target: Duration) {
        timeline.withLock { t in
            if target > t.now { t.now = target }
        }
    }
}
