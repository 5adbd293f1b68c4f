import SagaCore
import SagaLanguage

/// An `every`, `latest` or `leading` body run in its watcher's first short turn, with no task
/// of its own.
///
/// The short turn starts the body as a task that runs right after it, and the watcher's second
/// turn right after that (see ``Interpreter/runShortTurn(_:_:_:)``): nothing else runs in
/// between. A body whose code only computes, selects, logs and puts (see
/// ``Code/inlineSteps``) can therefore run here instead: its code runs in the watcher's turn
/// over its own copy of the watcher's variables, as its task would run it, and the task's life
/// (made or restarted, adopted, queued, run, ended, released) is saved: a large part of the
/// cost of a watcher's action.
///
/// Where the body would wait, or fails, it gets its task at that point, standing where its
/// code stopped, and runs on as any body does:
/// - an instruction fails: the task is queued to fail with that error, past it;
/// - a `put` finds other work before its action (another action queued, a task to run): the
///   task waits on the `put`, its action queued, as ``Interpreter/dispatch(_:from:)`` leaves it;
/// - a `put`'s action woke tasks, or failed: the task waits on the `put` and is woken after
///   them, as ``Interpreter/dispatchAtOnce(_:putter:)`` leaves it.
///
/// The watcher's second turn (back to its `take`) comes where it would have run: before the
/// first `put`'s action is processed (the run loop, or the `put` processed on the spot, runs
/// it first), or once the body has ended, or queued behind a body that got its task.
///
/// A `leading` watcher's second turn joins its body (``WatcherLoop/loop(of:)``), so it takes
/// again only once the body has ended: a `put` of the body is processed with the watcher taking
/// nothing, as when it waits on the join. A body that ends inline leaves `.null` in the hidden
/// `task` variable, which the second turn reads as a body ended with a value; one that gets its
/// task at a `put` processed on the spot has the watcher wait on its join at once, where the
/// statements would have left it before the action was processed.
extension Interpreter {
    /// A body running in its watcher's turn: what its code's `put`s need to give it its task
    /// (see ``putInline(_:into:_:_:past:_:)``).
    struct InlineBodyRun {
        /// The watcher's task, and its short turns' data: held unretained (the caller holds
        /// both while the body runs), read without a retain.
        let taskReference: Unmanaged<SagaTask>
        let watcherReference: Unmanaged<ShortTurnWatcher>
        /// The body's number, taken where its task would have taken it.
        let id: Int
        /// Whether the watcher's second turn has run.
        var retakeDone = false
        /// The body's task, once it has one.
        var child: SagaTask?

        init(task: SagaTask, watcher: ShortTurnWatcher, id: Int) {
            taskReference = .passUnretained(task)
            watcherReference = .passUnretained(watcher)
            self.id = id
        }
    }

    /// Runs the body of `watcher`, an `every`, `latest` or `leading` watcher taking its first
    /// short turn in `task`, with the action bound in `task`'s variables: `code` is the body's.
    func runBodyInline(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ code: Code) {
        let id = makeID()
        if tracer != nil { traceStart(id, Self.bodyName, spawned: false, from: task) }
        var env = watcher.bodyVariables(movingActionOutOf: &task.env)
        // The watcher's second turn, as the short turn sets it up: run here, or queued (see
        // ``queueRetake(_:_:)``). A `leading` watcher's comes only once the body has ended.
        task.token &+= 1
        var run = InlineBodyRun(task: task, watcher: watcher, id: id)
        let room = bodyRoom.room(for: code.roomCount)
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        var pc = 0
        var failure: SagaError?
        var exit = CodeExit.end
        withUnsafeMutablePointer(to: &run) { run in
            // No limit falls inside the body (see ``Code/inlineSteps``); the run's steps are
            // counted, and checked, once it has run, as a task's are.
            var counts = CodeSteps(self, inline: run, yieldAfter: Int.max, maxSteps: Int.max)
            do throws(SagaError) {
                exit = try env.withUnsafeMutableBufferPointer { (slots) throws(SagaError) -> CodeExit in
                    try reducers.run(
                        code, &noState, slots.baseAddress ?? room, action: .null, room, ev, pc: &pc, steps: &counts)
                }
            } catch {
                noState = .null
                failure = error
            }
            budget.stepsTaken &+= counts.ran
        }
        if let child = run.child {
            // A `put` gave the body its task, which goes on from where the code stopped.
            child.env = env
            moveRoom(room, to: child)
            return
        }
        if let failure {
            // As the instruction fails in a task: past it, with the error raised there.
            let child = bodyTask(&run, env, past: pc, room)
            let at = pc > 0 && pc <= code.lines.count ? code.lines[pc - 1] : child.location
            child.resumption = .unwind(.throwError(Failure(error: failure, trace: trace(child, at: at))))
            scheduler.schedule(child)
            queueRetake(task, run.retakeDone)
            return
        }
        guard case .end = exit else {
            // Code that ``Code/inlineSteps`` lets through stops nowhere else; should it, the
            // body goes on as a task from there.
            let child = bodyTask(&run, env, past: pc, room)
            scheduler.schedule(child)
            queueRetake(task, run.retakeDone)
            return
        }
        watcher.keepVariables(&env)
        // The step that finds the body's end, and the body's turn as a task.
        budget.stepsTaken &+= 2
        if !run.retakeDone { retakeNow(task, watcher) }
    }

    /// The name of a body's task (see ``startBody(of:in:id:env:)``).
    static let bodyName = "fork block"

    /// A `put` of `action` into `slot` (-1: nowhere), statement `site` of `code`, by a body
    /// running in its watcher's turn, whose code goes on at `pc`, as ``dispatch(_:from:)`` runs
    /// it: the action processed on the spot once the watcher has taken again (`true`: its
    /// value is the action), or, where a task would wait on the `put`, `false`: the body has
    /// its task, waiting there.
    func putInline(
        _ action: Value, into slot: Int32, _ code: Code, _ site: Int, past pc: Int, _ run: inout InlineBodyRun
    ) -> Bool {
        run.taskReference._withUnsafeGuaranteedRef { task in
            run.watcherReference._withUnsafeGuaranteedRef { watcher in
                putInline(action, into: slot, code, site, past: pc, &run, task, watcher)
            }
        }
    }

    /// ``putInline(_:into:_:_:past:_:)`` with the watcher's task and data at hand.
    @inline(__always)
    private func putInline(
        _ action: Value, into slot: Int32, _ code: Code, _ site: Int, past pc: Int, _ run: inout InlineBodyRun,
        _ task: SagaTask, _ watcher: ShortTurnWatcher
    ) -> Bool {
        let target: ResultTarget = slot >= 0 ? .slot(Int(slot)) : .discard
        guard canDispatchAtOnce else {
            let child = bodyTask(&run, [], past: pc, nil)
            if tracer != nil { traceEffect(at: code.sites[site], child) }
            child.target = target
            block(child, on: .put)
            scheduler.enqueue(action, putter: child)
            queueRetake(task, run.retakeDone)
            return false
        }
        // As ``dispatchAtOnce(_:putter:)`` records it, before the work it runs first.
        if tracer != nil { tracePutAtOnce(run.id, Self.bodyName) }
        let joinsBody = watcher.joinSlot != nil
        if !run.retakeDone, !joinsBody {
            run.retakeDone = true
            retakeNow(task, watcher)
        }
        let failure = processAtOnce(action)
        if failure == nil, !scheduler.stepMadeWork, !budget.isSpent { return true }
        let child = bodyTask(&run, [], past: pc, nil)
        if tracer != nil { traceEffect(at: code.sites[site], child) }
        if joinsBody {
            // Where the `join` statement would have left it before the action was processed.
            run.retakeDone = true
            budget.stepsTaken &+= 1
            if tracer != nil, let site = watcher.joinSite { traceEffect(at: site, task) }
            move(task, watcher, past: .join)
            task.target = .discard
            blockOnJoin(task, of: child)
        }
        child.target = target
        block(child, on: .put)
        wakePutter(child, failure, action)
        return false
    }

    /// The body's task, at last: started as the short turn starts it, with the variables
    /// `env` (the caller sets them where the code still runs over them), standing at `pc`,
    /// the temporaries in `room` moved to it when given.
    ///
    /// The caller has it run or wait.
    private func bodyTask(
        _ run: inout InlineBodyRun, _ env: [Value], past pc: Int, _ room: UnsafeMutablePointer<Value>?
    ) -> SagaTask {
        let task = run.taskReference.takeUnretainedValue()
        let watcher = run.watcherReference.takeUnretainedValue()
        let child = startBody(of: watcher, in: task, id: run.id, env: env)
        run.child = child
        task.adopt(child)
        child.pc = pc
        if let room { moveRoom(room, to: child) }
        // `latest` keeps the handle of the body it started last, to cancel it with the next
        // action. Only its own statements read it, none of which runs while the body does; a
        // body that ended inline leaves the null there, which cancels nothing, as cancelling an
        // ended body does nothing.
        if let lastSlot = watcher.lastSlot { task.env[lastSlot] = child.handle }
        // `leading` joins it: the watcher stands at its `join`, as its `fork` leaves it.
        if let joinSlot = watcher.joinSlot {
            task.env[joinSlot] = child.handle
            move(task, watcher, past: .fork)
        }
        return child
    }

    /// Moves the temporaries the body's code left in `room` to its task.
    private func moveRoom(_ room: UnsafeMutablePointer<Value>, to child: SagaTask) {
        for t in 0..<child.code.roomCount {
            if case .null = room[t] { continue }
            var value = Value.null
            swap(&value, &room[t])
            child.setTemporary(t, to: value)
        }
    }

    /// The watcher's second turn, run now, as the run loop would run its queued turn (the
    /// task's resumption is `.start`, as ``execute(_:)`` leaves it).
    @inline(__always)
    private func retakeNow(_ task: SagaTask, _ watcher: ShortTurnWatcher) {
        _ = retake(task, watcher)
    }

    /// The watcher's second turn queued behind its body's task, unless it has run: setting it
    /// up only here spares the body that runs to its end two writes of the task's resumption,
    /// each an outlined destroy.
    private func queueRetake(_ task: SagaTask, _ retakeDone: Bool) {
        if retakeDone { return }
        task.resumption = .retake
        scheduler.schedule(task)
    }
}
