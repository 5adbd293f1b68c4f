import Synchronization

/// A store thread and task executor that run nothing until a test says so: deterministic
/// tests of async work, in the spirit of swift-nio's embedded event loop.
///
/// Both the hops to the store (``post(_:)``, ``run(_:)``) and the task work itself (it is the
/// ``taskExecutor``) wait in one FIFO queue, which ``runUntilIdle()`` drains on the caller's
/// thread. With ``advance(_:by:)`` a test moves a ``VirtualTaskClock`` and runs everything
/// that wakes, deadline by deadline, so a test reads as a transcript:
///
/// ```swift
/// let thread = ManualStoreThread()
/// let clock = VirtualTaskClock()
/// store.dispatch(.task(.run(load)))      // the task is queued, not yet run
/// thread.runUntilIdle()                  // it runs to its first sleep
/// thread.advance(clock, by: .seconds(1)) // it wakes, dispatches, ends
/// ```
///
/// The store must only be touched by the test itself and inside these calls.
public final class ManualStoreThread: StoreThread, TaskExecutor {
    private enum Item {
        case job(UnownedJob)
        case body(@Sendable () -> Void)
    }

    private let items = Mutex(RingBuffer<Item>())

    /// An empty loop.
    public init() {}

    public func post(_ body: @escaping @Sendable () -> Void) {
        items.withLock { $0.append(.body(body)) }
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            post { continuation.resume(returning: body()) }
        }
    }

    /// Itself: the work of tasks runs only inside ``runUntilIdle()``.
    public var taskExecutor: (any TaskExecutor)? { self }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        items.withLock { $0.append(.job(job)) }
    }

    /// How many task steps and store hops are waiting.
    public var pendingCount: Int {
        items.withLock { $0.count }
    }

    /// How many hops to the store (a dispatch, a state read, a report) are waiting.
    public var pendingStoreHops: Int {
        items.withLock { queue in
            queue.reduce(0) { count, item in
                if case .body = item { count + 1 } else { count }
            }
        }
    }

    /// Runs queued task steps and store hops, in order, until none is left (including those
    /// they queue).
    public func runUntilIdle() {
        while let item = items.withLock({ $0.popFirst() }) {
            execute(item)
        }
    }

    /// Runs only task steps, leaving hops to the store queued: the store's thread is busy
    /// while the work runs on, which is how a test stages a cancellation race.
    public func runTaskStepsUntilIdle() {
        while true {
            let next = items.withLock { queue -> UnownedJob? in
                var kept = RingBuffer<Item>()
                var found: UnownedJob?
                while let item = queue.popFirst() {
                    if found == nil, case .job(let job) = item { found = job } else { kept.append(item) }
                }
                queue = kept
                return found
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Moves `clock` forward by `duration`, one deadline at a time, running everything
    /// that wakes (and everything that it starts) before the next deadline.
    public func advance(_ clock: VirtualTaskClock, by duration: Duration) {
        runUntilIdle()
        let target = clock.now + duration
        while clock.wakeEarliest(notAfter: target) {
            runUntilIdle()
        }
        clock.move(to: target)
        runUntilIdle()
    }

    private func execute(_ item: Item) {
        switch item {
        case .job(let job): job.runSynchronously(on: asUnownedTaskExecutor())
        case .body(let body): body()
        }
    }
}
