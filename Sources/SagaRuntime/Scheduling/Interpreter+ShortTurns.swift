import SagaCore
import SagaLanguage

/// The short turn of an `every` watcher. Its task runs `loop { var a = take P; fork { B } }`
/// (see ``WatcherLoop/loop(of:)``): each matching action woke it to store the action, start
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
/// A `leading` watcher's loop joins the body it started before it takes again:
/// `loop { let a = take P; let task = fork { B }; join task }`. Its first turn is the `take`
/// and the `fork`, as `every`'s; its second joins the body: it blocks on the join while the
/// body runs, or takes again at once when the body has ended with a value; and when the body
/// ends later, the join's wake-up takes it back to its `take`. A body that failed or was
/// cancelled is joined by the `join` statement as written.
///
/// A short turn counts the steps of the statements it stands for (toward `--max-run-steps`), and
/// a traced run records what those statements record: the body's start, and the `take` or
/// `join` the watcher then waits on.
///
/// A yield budget (`--yield-after`) under ``shortTurnSteps`` could send the watcher to the back
/// of the run order between its statements, letting other work run before it takes again: the
/// statements then run as written.
extension Interpreter {
    /// A statement of a watcher's loop (see ``WatcherLoop/loop(of:)``): its `take`, its `fork`,
    /// and `leading`'s `join`.
    enum WatcherStatement: Int {
        case take, fork, join
    }

    /// Puts a watcher past `statement` in its loop's code, where the statements as
    /// written would have left it.
    @inline(__always)
    func move(_ task: SagaTask, _ watcher: ShortTurnWatcher, past statement: WatcherStatement) {
        guard let end = statementEnd(task, watcher, statement) else { return }
        task.pc = end
    }

    /// Whether a watcher stands past `statement` in its loop's code.
    @inline(__always)
    private func stands(_ task: SagaTask, _ watcher: ShortTurnWatcher, past statement: WatcherStatement) -> Bool {
        guard let end = statementEnd(task, watcher, statement) else { return false }
        return task.pc == end
    }

    /// Where a watcher's loop's code goes on past `statement`, or `nil` if its loop's code is
    /// not running.
    @inline(__always)
    private func statementEnd(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ statement: WatcherStatement) -> Int? {
        if watcher.statementEnds.take < 0 { learnStatementEnds(task, watcher) }
        let end: Int
        switch statement {
        case .take: end = watcher.statementEnds.take
        case .fork: end = watcher.statementEnds.fork
        case .join: end = watcher.statementEnds.join
        }
        return end >= 0 ? end : nil
    }

    /// Finds where the watcher's loop's code goes on past each of its statements, in the code
    /// on top of the task's frames, and the statements its short turns stand for (see
    /// ``ShortTurnWatcher/nextTake``).
    @inline(never)
    private func learnStatementEnds(_ task: SagaTask, _ watcher: ShortTurnWatcher) {
        let code = task.code
        let ends = code.statementEnds
        watcher.statementEnds = (
            ends.count > 0 ? ends[0] : -1, ends.count > 1 ? ends[1] : -1, ends.count > 2 ? ends[2] : -1
        )
        var forkSite: Code.Site?
        for end in ends {
            guard let site = code.site(endingAt: end) else { continue }
            switch Compiler.effect(of: site.statement) {
            case .fork?: if forkSite == nil { forkSite = site }
            case .join?: if watcher.joinSite == nil { watcher.joinSite = site }
            default: break
            }
        }
        let retake = watcher.joinSlot != nil ? watcher.joinSite : forkSite
        if let retake { watcher.nextTake = retake.nextTake }
    }

    /// The most steps a watcher's turn takes: `latest`'s `if`, `cancel`, the end of the
    /// `if`'s arm and `fork`.
    static let shortTurnSteps = 4

    /// Whether watchers take their short turns.
    var watchersRunShort: Bool {
        options.shortCuts && (options.yieldAfterSteps ?? Int.max) >= Self.shortTurnSteps
    }

    /// The first turn, for the action that woke the watcher: the `take` statement stores it,
    /// then the `fork` statement starts the body, and the watcher yields to the child,
    /// ready to take again right after it.
    ///
    /// - Returns: `false` if the task is better run as it stands (the fork would fail: too many
    ///   tasks; or, for `latest`, cancelling its last body would do something), having done
    ///   nothing; the caller then resumes it with the action as usual.
    ///
    /// A `leading` watcher woken from its `join` (it stands past the `join` statement) by the
    /// body's value goes back to its `take`, dropping the value as the statement does.
    ///
    /// `action` is moved into the watcher's variable when a body starts (it then holds that
    /// variable's old value); otherwise it is left as it is, for the caller to store or drop.
    func runShortTurn(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ action: inout Value) -> Bool {
        if watcher.nextTake.pc < 0 {
            if watcher.statementEnds.take < 0 { learnStatementEnds(task, watcher) }
            // Where the loop's code is not the one its short turns stand for.
            guard watcher.nextTake.pc >= 0 else { return false }
        }
        if watcher.joinSlot != nil, stands(task, watcher, past: .join) {
            takeAgain(task, watcher)
            return true
        }
        guard liveTasks < options.maxTasks else { return false }
        if let lastSlot = watcher.lastSlot {
            guard cancelDoesNothing(task, lastSlot) else { return false }
            // `if last != null { cancel last }` (`last` is null only before the first body:
            // a body run in the watcher's turn leaves no handle there), then the `fork`.
            budget.stepsTaken &+= watcher.hasStartedBody ? 4 : 2
            watcher.hasStartedBody = true
        } else {
            budget.stepsTaken &+= 1  // The `fork`.
        }
        // Swapped in, not copied: the caller's value is the action's last use, and it drops
        // the slot's old value instead, which saves a retain and a release an action.
        swap(&task.env[watcher.bindingSlot], &action)
        task.target = .discard
        // `latest`'s `last` and `leading`'s `task` hold the last body's handle, which only the
        // watcher's own statements read (no name in a body reaches them, and they are past
        // every slot of its declaration): let go of it before the next body starts, so that
        // the last body's task, if nothing else refers to it, runs the next. The body then
        // sees `.null` there, where the `fork` statement would hand it the old handle.
        if let hidden = watcher.lastSlot ?? watcher.joinSlot { task.env[hidden] = .null }
        // Inline only where no step limit can fall inside the body, which as a task would fail
        // or yield there.
        let code = watcher.bodyCode ?? bodyCode(of: watcher, slotCount: task.env.count)
        if watcher.inlineSteps == -2 { watcher.inlineSteps = code.inlineSteps ?? -1 }
        let steps = watcher.inlineSteps
        if steps >= 0, steps <= options.maxSteps, steps <= options.yieldAfterSteps ?? Int.max, !scheduler.stepMadeWork {
            runBodyInline(task, watcher, code)
            return true
        }
        let env = watcher.bodyVariables(movingActionOutOf: &task.env)
        let child = startBody(of: watcher, in: task, id: makeID(), env: env)
        if tracer != nil { traceStart(child, from: task) }
        task.token &+= 1
        runNow(child, of: task, watcher)
        return true
    }

    /// Runs a body the watcher `task` has just started, then the watcher's second turn, as
    /// the run loop would run them next: nothing is waiting in front of them (work made by a
    /// step goes ahead of everything else), so the body runs at once, in this turn, and the
    /// watcher's turn comes right after it, behind whatever the body makes runnable.
    ///
    /// The body's task is adopted by the watcher only if it waits, yields, fails or runs a
    /// statement where it stands (see ``adoptIfPending(_:joiningNow:)``); one that runs to its
    /// end first (``bodyEndedUnadopted(_:)``) never joins the watcher's children, leaves no
    /// handle in `latest`'s `last` or `leading`'s `task`, and its task starts the next body as
    /// it is.
    ///
    /// `every`'s and `latest`'s turn comes first in the run order while the body runs
    /// (``pendingRetake``): a `put` the body processes on the spot takes it first (the watcher
    /// takes again before the action is processed), and so does the end of the body's turn,
    /// unless the body made work, which runs ahead of it. `leading`'s, which joins the body,
    /// comes once the body has run: a `put` of the body is processed with the watcher taking
    /// nothing, as when it waits on the join.
    ///
    /// The body's turn counts toward the run's limits as the run loop's turns do; where work is
    /// already waiting, or a limit stops the run, both are queued as the statements queue them
    /// instead.
    private func runNow(_ child: SagaTask, of task: SagaTask, _ watcher: ShortTurnWatcher) {
        guard !scheduler.stepMadeWork, pendingRetake == nil, !budget.checksEachTurn || withinRunLimits() else {
            task.adopt(child)
            noteBody(child, of: task, watcher)
            scheduler.schedule(child)
            task.resumption = .retake
            scheduler.schedule(task)
            return
        }
        child.awaitsAdoption = true
        // `every`'s and `latest`'s turn stands first while the body runs; `leading`'s, which
        // joins the body, comes once the body has run.
        let first = watcher.joinSlot == nil
        let token = task.token
        if first {
            pendingRetake = .passUnretained(task)
            pendingRetakeToken = token
            pendingTake = watcher.nextTake
        }
        stepLoop(child)
        if child.endedUnadopted { keepEnded(child, watcher) }
        if first {
            // A `put` the body processed on the spot took it.
            guard pendingRetake != nil else { return }
            pendingRetake = nil
        }
        // Unless the watcher now waits on its join, or failed with its body.
        guard task.token == token, !task.isDone else { return }
        // As the run loop would go on: work the body made first; then the watcher, within the
        // run's limits.
        guard !scheduler.stepMadeWork, !budget.checksEachTurn || withinRunLimits() else {
            task.resumption = .retake
            if first { scheduler.scheduleFirst(task) } else { scheduler.schedule(task) }
            return
        }
        if !retake(task, watcher) { stepLoop(task) }
    }

    /// Keeps the task of a body that ended before its watcher adopted it, and its variables'
    /// storage, for the watcher's next body.
    @inline(__always)
    private func keepEnded(_ child: SagaTask, _ watcher: ShortTurnWatcher) {
        watcher.keepVariables(&child.env)
        spareTasks.keep(child)
    }

    /// The next turn of the task whose body's `put` is processed on the spot
    /// (``pendingRetake``), which the run loop would take before the action: the task goes back
    /// to its `take` (``pendingTake``, see ``continueToTake(_:_:)``).
    ///
    /// - Returns: `false` if the run's limits stop the run there.
    @inline(__always)
    func takePendingRetake() -> Bool {
        guard let pending = pendingRetake else { return true }
        pendingRetake = nil
        guard withinLimitsAtOnce() else { return false }
        return pending._withUnsafeGuaranteedRef { task in
            guard task.token == pendingRetakeToken, !task.isDone else { return true }
            continueToTake(task, pendingTake)
            return true
        }
    }

    /// Has the watcher `task` hold the handle of its body `child`, as its `fork` statement
    /// leaves it: in `latest`'s `last`, to cancel it with the next action, or `leading`'s `task`,
    /// to join it.
    func noteBody(_ child: SagaTask, of task: SagaTask, _ watcher: ShortTurnWatcher) {
        if let lastSlot = watcher.lastSlot { task.env[lastSlot] = child.handle }
        if let joinSlot = watcher.joinSlot {
            task.env[joinSlot] = child.handle
            move(task, watcher, past: .fork)
        }
    }

    /// `leading`'s `join` of a body adopted where its `put`, processed on the spot, made it
    /// wait: the watcher waits on its join, where the statement would have left it before the
    /// action was processed.
    func waitOnJoin(of child: SagaTask, _ task: SagaTask, _ watcher: ShortTurnWatcher) {
        budget.stepsTaken &+= 1
        if tracer != nil, let site = watcher.joinSite { traceEffect(at: site, task) }
        move(task, watcher, past: .join)
        task.target = .discard
        blockOnJoin(task, of: child)
    }

    /// Starts a body of `watcher` as a task attached to `task`, the watcher's.
    ///
    /// It runs in a finished task kept to run new ones (see ``SpareTasks``), or in a new one. A
    /// body of the same watcher that ended before it was adopted only needs the fields it
    /// changed set again (``SagaTask/rebirth(id:parent:env:)``).
    ///
    /// The caller has `task` adopt it (here, the reference held across the call would be
    /// released and retained again) and has it run, or runs it at once (see
    /// ``runNow(_:of:_:)``), which has it adopted where it must be.
    @inline(__always)
    func startBody(of watcher: ShortTurnWatcher, in task: SagaTask, id: Int, env: consuming [Value]) -> SagaTask {
        liveTasks += 1
        guard let spare = spareTasks.take() else {
            return SagaTask(
                id: id, name: Self.bodyName, location: watcher.location, kind: .attached, parent: task, env: env,
                body: watcher.bodyCode ?? bodyCode(of: watcher, slotCount: env.count))
        }
        // Only a watcher's body ends unadopted, and each watcher's body has its own code.
        if spare.endedUnadopted, spare.code === watcher.bodyCode {
            spare.rebirth(id: id, parent: task, env: env)
        } else {
            spare.restart(
                id: id, name: Self.bodyName, location: watcher.location, kind: .attached, parent: task, env: env,
                body: watcher.bodyCode ?? bodyCode(of: watcher, slotCount: env.count))
        }
        return spare
    }

    /// The code of a watcher's body, found once (see ``ShortTurnWatcher/bodyCode``).
    @inline(never)
    private func bodyCode(of watcher: ShortTurnWatcher, slotCount: Int) -> Code {
        let code = code(of: watcher.body, slotCount: slotCount)
        watcher.bodyCode = code
        return code
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

    /// The second turn: back at the top of its loop, the watcher blocks on its `take` again;
    /// a `leading` watcher joins its body first (see ``joinBody(_:_:_:)``).
    ///
    /// - Returns: `false` if the task is to run its statements from where it stands (a
    ///   `leading` watcher's `join`), having done nothing.
    func retake(_ task: SagaTask, _ watcher: ShortTurnWatcher) -> Bool {
        if let joinSlot = watcher.joinSlot { return joinBody(task, watcher, joinSlot) }
        takeAgain(task, watcher)
        return true
    }

    /// Blocks a watcher on its `take`, as its loop's code does from its `fork` (`leading`: its
    /// `join`) on (see ``continueToTake(_:_:)``).
    @inline(__always)
    func takeAgain(_ task: SagaTask, _ watcher: ShortTurnWatcher) {
        continueToTake(task, watcher.nextTake)
    }

    /// `leading`'s second turn, its `join task`, as ``joinOne(_:_:)`` would do it: blocks on
    /// the body while it runs; once it has ended with a value, the join has it at once and the
    /// watcher takes again (unless other work is waiting: the statement would yield to it).
    ///
    /// - Returns: `false` if the `join` statement is better run as written (the body failed or
    ///   was cancelled, or work is waiting), having done nothing.
    private func joinBody(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ joinSlot: Int) -> Bool {
        guard let body = joinedBody(task, joinSlot) else {
            // A body that ran inline, or ended before its adoption, ended with a value and no
            // work waiting.
            guard bodyEndedInline(task, joinSlot) else { return false }
            budget.stepsTaken &+= 1  // The `join`.
            takeAgain(task, watcher)
            return true
        }
        if !body.isDone {
            // Where the `join` statement leaves it: past the statement, its value dropped.
            budget.stepsTaken &+= 1
            if tracer != nil, let site = watcher.joinSite { traceEffect(at: site, task) }
            move(task, watcher, past: .join)
            task.target = .discard
            blockOnJoin(task, of: body)
            return true
        }
        // No work is waiting at the start of a turn; if some were, the statement would yield.
        guard case .value? = body.outcome, !scheduler.stepMadeWork else { return false }
        budget.stepsTaken &+= 1
        takeAgain(task, watcher)
        return true
    }

    /// The body a `leading` watcher joins: its hidden `task` variable's task.
    private func joinedBody(_ task: SagaTask, _ joinSlot: Int) -> SagaTask? {
        guard joinSlot < task.env.count, case .handle(let h) = task.env[joinSlot] else { return nil }
        return h.object as? SagaTask
    }

    /// Whether the body a `leading` watcher joins ran inline and ended
    /// (``runBodyInline(_:_:_:)``), or ended before the watcher adopted it
    /// (``runNow(_:of:_:)``): it leaves no handle, only the `.null` its short turn put in the
    /// hidden `task` variable.
    private func bodyEndedInline(_ task: SagaTask, _ joinSlot: Int) -> Bool {
        guard joinSlot < task.env.count, case .null = task.env[joinSlot] else { return false }
        return true
    }

    /// Whether a watcher's second turn changes nothing another task could see: always, but for
    /// a `leading` watcher whose body failed or was cancelled (its `join` then fails or
    /// cancels the watcher).
    ///
    /// A body's failure aborts the watcher, which makes the turn stale before it gets here; a
    /// body that cancelled itself can reach it.
    private func retakeIsQuiet(_ task: SagaTask) -> Bool {
        guard let joinSlot = task.shortTurnWatcher?.joinSlot else { return true }
        guard let body = joinedBody(task, joinSlot) else { return bodyEndedInline(task, joinSlot) }
        if !body.isDone { return true }
        if case .value? = body.outcome { return true }
        return false
    }

    /// Whether `work` is stale, or a turn that changes nothing another task could see (a
    /// watcher's second turn, see ``retakeIsQuiet(_:)``, or the turn of a task that yielded to
    /// the body it forked and then only takes, see ``SagaTask/nextTurnIsQuiet``), so that a
    /// `put` may be processed once it is done (see ``dispatchAtOnce(_:putter:)``).
    func isQuietOrStale(_ work: Work) -> Bool {
        guard case .run(let task, let token) = work else { return false }
        guard task.token == token, !task.isDone else { return true }
        switch task.resumption {
        case .retake: return retakeIsQuiet(task)
        case .start: return task.nextTurnIsQuiet
        default: return false
        }
    }
}
