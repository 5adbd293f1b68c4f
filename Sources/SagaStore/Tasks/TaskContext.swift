/// What task work can do with the store: dispatch, read the state, sleep, and see whether
/// it has been cancelled.
///
/// Every dispatch and read hops to the store's thread (through the middleware's
/// ``StoreThread``) and is awaited, so a read after a dispatch sees its effect.
///
/// ```swift
/// TaskAction<AppState, AppAction>(id: "upload") { context in
///     for part in 1...3 {
///         try await context.clock.sleep(for: .seconds(1))
///         await context.dispatch(.uploadProgress(part))
///     }
///     let count = try await context.read { $0.uploadedParts }
///     await context.dispatch(.uploadFinished(count))
/// }
/// ```
public struct TaskContext<State, Action: Sendable>: Sendable {
    /// The task's id.
    public let id: TaskID
    /// The clock to sleep on; virtual under test.
    public let clock: any TaskClock
    let record: TaskRecord
    let link: StoreLink<State, Action>
    let thread: any StoreThread

    /// Whether the task has been cancelled (by id, by a newer task with
    /// ``TaskPolicy/cancelInFlight``, by its handle, or by `cancelAll`).
    public var isCancelled: Bool {
        record.isCancelled || Task.isCancelled
    }

    /// Throws `CancellationError` if the task has been cancelled.
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Dispatches `action` on the store's thread and waits until the store has taken it.
    ///
    /// The action lands only if the task is still running when the store's thread takes it
    /// up: after the task has been cancelled (or its work has returned) it is dropped, even if
    /// it was already on its way. Work need not check ``isCancelled`` before dispatching.
    public func dispatch(_ action: Action) async {
        guard record.isRunning else { return }
        let record = self.record
        let link = self.link
        await thread.run {
            if record.isRunning { link.dispatch(action) }
        }
    }

    /// Reads part of the state on the store's thread.
    ///
    /// - Throws: `CancellationError` when the store no longer exists.
    public func read<T: Sendable>(_ select: @escaping @Sendable (State) -> T) async throws -> T {
        let link = self.link
        let value = await thread.run { link.read(select) }
        guard let value else { throw CancellationError() }
        return value
    }

    /// Sleeps on ``clock``.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while asleep.
    public func sleep(for duration: Duration) async throws {
        try await clock.sleep(for: duration)
    }
}

extension TaskContext where State: Sendable {
    /// The whole state, read on the store's thread.
    ///
    /// - Throws: `CancellationError` when the store no longer exists.
    public var state: State {
        get async throws { try await read { $0 } }
    }

    /// The whole state, read on the store's thread (Redux's `getState`).
    ///
    /// - Throws: `CancellationError` when the store no longer exists.
    public func getState() async throws -> State {
        try await read { $0 }
    }
}
