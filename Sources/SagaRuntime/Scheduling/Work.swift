import SagaCore

/// A unit of scheduler work.
enum Work {
    /// Run a task (if `token` is still its token).
    case run(SagaTask, Int)
    /// Cancel a task's running attached children, in start order, each whole.
    case cancelChildren(SagaTask)
    /// An action channel that took an action waits for the next from here on, behind the
    /// tasks that were woken before it and have begun to wait again (see
    /// ``Channel/waitSequence``).
    case subscribe(Channel)
}
