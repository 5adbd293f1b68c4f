import SagaCore

/// The tree of a run's tasks: its root sagas, how many tasks are alive, the finished ones kept
/// to start new ones in, and what happens when a task ends or is cancelled.
///
/// A task ends in two steps (see “Completion” in Sagas/README.md): its body ends, then, once its
/// attached children have ended, the task finishes. Its outcome then goes to its joiners and to
/// the task that waits for it (the parent of an attached child, a function's caller, a `race`'s
/// or an `all`'s owner); an attached child's failure aborts its parent. Cancellation goes down
/// the tree: first what a task waits for, then its body, then its children (see
/// ``cancelWork(_:)``).
///
/// The tree decides what must run and hands that to the ``Scheduler``. What runs is the
/// interpreter's: it wakes a task (``Interpreter/wake(_:_:)``, which the trace records) and
/// reports a failure nothing waits for (``Interpreter/report(_:_:what:)``); the tree reaches it
/// through ``interpreter``, which the interpreter sets once it is made (``attach(to:)``).
///
/// Its mutable fields are unchecked for exclusivity, as ``SagaTask``'s are: the interpreter's
/// scheduler alone reaches them, one turn at a time.
final class TaskTree {
    /// The interpreter whose tasks these are, held unretained.
    ///
    /// It owns the tree, which it outlives, and sets this once it is made (see
    /// ``attach(to:)``).
    @exclusivity(unchecked) private var owner: Unmanaged<Interpreter>?

    /// The interpreter whose tasks these are, once it is made.
    var interpreter: Interpreter? { owner?.takeUnretainedValue() }
    /// Where the work the tree decides on goes.
    let scheduler: Scheduler
    /// The root sagas, for ``Interpreter/stop()``.
    @exclusivity(unchecked) var roots: [SagaTask] = []
    /// The number the next task or channel made takes (see ``makeID()``).
    @exclusivity(unchecked) var nextID = 1
    /// Tasks started and not yet finished (see ``Interpreter/Options/maxTasks``).
    @exclusivity(unchecked) var liveTasks = 0
    /// Finished tasks kept to run new ones in.
    @exclusivity(unchecked) var spareTasks = SpareTasks()
    /// Whether a task has waited on a `join` in this run: only then can the run end with one
    /// that never ends (see ``warnOfJoinsThatNeverEnd()``), which its end would otherwise look
    /// for through every task still waiting.
    @exclusivity(unchecked) var hasWaitedOnJoin = false

    init(scheduler: Scheduler) {
        self.scheduler = scheduler
    }

    /// Makes `interpreter`, which owns the tree, the one it reaches back.
    func attach(to interpreter: Interpreter) {
        owner = .passUnretained(interpreter)
    }

    /// Wakes `task` with `resumption` (see ``Interpreter/wake(_:_:)``), the interpreter read
    /// without a retain: a task's end wakes its joiner, caller or combinator's owner.
    @inline(__always)
    func wake(_ task: SagaTask, _ resumption: Resumption) {
        owner?._withUnsafeGuaranteedRef { $0.wake(task, resumption) }
    }
}
