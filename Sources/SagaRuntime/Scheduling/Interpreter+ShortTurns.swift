import SagaCore
import SagaLanguage

/// The short turn of an `every` watcher. Its task runs `loop { var a = take P; fork { B } }`
/// (see ``Desugar/watcher(_:env:)``): each matching action woke it to store the action, start
/// the body and yield to it, then woke it again to loop back and take once more: two runs
/// through the statement machinery, the pattern evaluated again, per action. Here the same
/// two turns do only what those statements would have done, in the same order, so nothing
/// another task or the transcript can see differs.
///
/// A `latest` watcher's loop also cancels the body it started last and keeps the new one's
/// handle: `loop { let a = take P; if last != null { cancel last }; last = fork { B } }`. Its
/// short turn is taken only while cancelling would do nothing (that body has ended, or is
/// being cancelled already), as it does when actions come slower than its body ends;
/// otherwise the cancel has work to run before the fork, and the statements run as written.
///
/// Not under a trace (which shows the watcher's statements), a run-step limit (which counts
/// them) or a yield budget (`--yield-after`: a small one sends the watcher to the back of the
/// run order between its statements, and other work runs before it takes again).
extension Interpreter {
    /// Whether watchers take their short turns.
    var watchersRunShort: Bool {
        tracer == nil && options.maxRunSteps == nil && options.yieldAfterSteps == nil
    }

    /// The first turn, for the action that woke the watcher: the `take` statement stores it,
    /// then the `fork` statement starts the body, and the watcher yields to the child,
    /// ready to take again right after it.
    ///
    /// - Returns: `false` if the task is better run as it stands (the fork would fail: too many
    ///   tasks; or, for `latest`, cancelling its last body would do something), having done
    ///   nothing; the caller then resumes it with the action as usual.
    func runShortTurn(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ action: Value) -> Bool {
        guard liveTasks < options.maxTasks else { return false }
        if let lastSlot = watcher.lastSlot, !cancelDoesNothing(task, lastSlot) { return false }
        task.env[watcher.bindingSlot] = action
        task.target = .discard
        // The body sees the variables as the `fork` statement would: `last` still the old one.
        let child = newTask(
            name: "fork block", location: watcher.location, kind: .attached, parent: task,
            env: watcher.bodyVariables(copying: task.env), body: watcher.body)
        task.adopt(child)
        wakeups.append(.run(child, child.token))
        if let lastSlot = watcher.lastSlot { task.env[lastSlot] = child.handle }
        task.token &+= 1
        task.resumption = .retake
        wakeups.append(.run(task, task.token))
        return true
    }

    /// Whether `latest`'s `if last != null { cancel last }` would do nothing: no body started
    /// yet, or the last one has ended or is being cancelled (see ``cancelWork(_:)``).
    private func cancelDoesNothing(_ task: SagaTask, _ lastSlot: Int) -> Bool {
        guard lastSlot < task.env.count else { return false }
        switch task.env[lastSlot] {
        case .null:
            return true
        case .handle(let h):
            guard let last = h.object as? SagaTask, last !== task else { return false }
            return last.isDone || last.isCancelling
        default:
            return false
        }
    }

    /// The second turn: back at the top of its loop, the watcher blocks on its `take` again.
    func retake(_ task: SagaTask, _ watcher: ShortTurnWatcher) {
        task.target = .slot(watcher.bindingSlot)
        block(task, on: .take)
        takers.append(Taker(task: task, token: task.token, pattern: watcher.pattern, condition: nil))
    }

    /// Whether `work` is a watcher's second turn, or stale: either way it changes nothing
    /// another task could see, so a `put` may be processed once it is done (see
    /// ``dispatchAtOnce(_:putter:)``).
    func isRetakeOrStale(_ work: Work) -> Bool {
        guard case .run(let task, let token) = work else { return false }
        guard task.token == token, !task.isDone else { return true }
        if case .retake = task.resumption { return true }
        return false
    }
}
