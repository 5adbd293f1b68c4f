import SagaLanguage

/// A task blocked on `take` of the store's actions.
struct Taker {
    /// Strong: what a blocked task waits on is what keeps it alive.
    var task: SagaTask
    /// The task's token when it began to wait: the entry is stale once the token moves on. (While
    /// it is live, the task's ``SagaTask/waitSequence`` says when it began to wait.)
    var token: Int
    var pattern: ActionPattern
    var condition: TakeCondition?

    /// A taker for `task`, which has just blocked on `take`.
    init(_ task: SagaTask, pattern: ActionPattern, condition: TakeCondition? = nil) {
        self.task = task
        self.token = task.token
        self.pattern = pattern
        self.condition = condition
    }

    /// The task, its reference moved out with the taker: read as `taker.task`, it is copied
    /// (an atomic retain, and a release when the taker goes).
    consuming func takeTask() -> SagaTask {
        task
    }

    /// Whether its task still waits on this `take` (it has not been cancelled or woken since).
    var isLive: Bool {
        guard task.token == token, case .take = task.wait else { return false }
        return true
    }

    /// Whether it has no `where` condition.
    var isUnconditional: Bool {
        if case .none = condition { return true }
        return false
    }
}
