import Synchronization

/// One task in flight: its id, its phase, and its Swift `Task` once started.
///
/// The phase is what makes cancellation final: a task's dispatches land only while it is
/// ``Phase/running``, checked again on the store's thread, so once a cancel has been
/// processed nothing the task sends afterwards, or sent just before, reaches the store.
final class TaskRecord: Sendable {
    enum Phase {
        case running, cancelled, finished
    }

    private struct Inner {
        var phase = Phase.running
        var task: Task<Void, Never>?
    }

    let id: TaskID
    let serial: UInt64
    /// Called once, when the record leaves ``Phase/running`` (lets go of an owning handle).
    private let onEnd: @Sendable () -> Void
    private let inner = Mutex(Inner())

    init(id: TaskID, serial: UInt64, onEnd: @escaping @Sendable () -> Void) {
        self.id = id
        self.serial = serial
        self.onEnd = onEnd
    }

    var isCancelled: Bool { inner.withLock { $0.phase == .cancelled } }

    /// Whether the task's work may still reach the store.
    var isRunning: Bool { inner.withLock { $0.phase == .running } }

    /// The Swift task running the work, once attached.
    var task: Task<Void, Never>? { inner.withLock { $0.task } }

    /// Records the Swift task; cancels it at once if the record was cancelled meanwhile.
    func attach(_ task: Task<Void, Never>) {
        let cancelled = inner.withLock { inner -> Bool in
            inner.task = task
            return inner.phase == .cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Moves from running to `phase`.
    ///
    /// - Returns: whether it was running. The caller cancels ``task`` after releasing its
    ///   locks, so that cancellation handlers never run under them.
    func end(as phase: Phase) -> Bool {
        let wasRunning = inner.withLock { inner -> Bool in
            guard inner.phase == .running else { return false }
            inner.phase = phase
            return true
        }
        if wasRunning { onEnd() }
        return wasRunning
    }
}
