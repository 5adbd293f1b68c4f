import SagaCore
import SagaLanguage

/// What running one statement did to its task.
enum Step {
    /// Go on with the next statement.
    case next
    /// The task blocked, yielded or ended: stop running it.
    case suspended
    /// The statement left its block abruptly.
    case completion(Completion)
    /// The statement called a function inline, which now runs.
    case entered
    /// The statement called a function whose body is one `return` and has its value: it
    /// counts as ``entered`` followed by the step of that `return`, as the inline call would.
    case called
    /// The statement's effect completed where the task would otherwise have blocked and been
    /// resumed at once (a `put` processed on the spot): the count of steps without waiting
    /// starts again, as it does when a task is resumed.
    case resumed
}

extension Interpreter {
    /// Runs a task from where it stands until it blocks, yields or ends.
    func execute(_ task: SagaTask) {
        // Swapped out rather than copied and reset, which saves a copy and a destroy (two
        // outlined calls) per resumption.
        var resumption = Resumption.start
        swap(&resumption, &task.resumption)
        // A value is moved out by a consuming method: bound by the `switch` below, it would
        // be copied and the resumption destroyed (a retain and a release a resumption).
        if case .value = resumption {
            resume(task, with: (consume resumption).takeValue())
            return
        }
        switch consume resumption {
        case .start, .value:
            break
        case .retake:
            guard let watcher = task.shortTurnWatcher else {
                assertionFailure("a task without a watcher's data took a watcher's turn")
                return
            }
            // Otherwise a `leading` watcher's `join` runs as written.
            if retake(task, watcher) { return }
        case .error(let failure):
            if case .compensating = task.frames.last {
                output.error("warning: a compensation failed: \(failure.error.message)")
                break
            }
            guard unwind(task, .throwError(failure)) else { return }
        case .unwind(let completion):
            guard unwind(task, completion) else { return }
        }
        stepLoop(task)
    }

    /// Runs a task whose effect gave `value`: written where its statement wants it (or, for a
    /// watcher between its turns, matched as its next action), then its steps.
    private func resume(_ task: SagaTask, with value: consuming Value) {
        if task.isShortTurnWatcher, let watcher = task.shortTurnWatcher, watchersRunShort,
            runShortTurn(task, watcher, &value)
        {
            return
        }
        if case .compensating = task.frames.last {
            // A compensation's value goes nowhere.
            stepLoop(task)
            return
        }
        do {
            try storeResult(value, task)
        } catch {
            // Reported at the statement that waited, as a failure before the wait is.
            let at = task.waitingStatementLocation ?? task.location
            guard unwind(task, .throwError(Failure(error: error, trace: trace(task, at: at)))) else { return }
        }
        stepLoop(task)
    }

    /// Writes the value of the effect a task was blocked on where the statement wanted it.
    ///
    /// `value` is consumed: stored in a slot, it is moved there rather than copied.
    func storeResult(_ value: consuming Value, _ task: SagaTask) throws(SagaError) {
        // The target is swapped out (and left `.discard`, even when storing fails) rather than
        // copied and reset, for the same reason as the resumption in ``execute(_:)``.
        var target = ResultTarget.discard
        swap(&target, &task.target)
        switch consume target {
        case .discard:
            break
        case .slot(let slot):
            task.env[slot] = value
        case .lvalue(let lv):
            try assign(value, to: lv, in: task)
        }
    }

    private func assign(_ value: Value, to lv: LValue, in task: SagaTask) throws(SagaError) {
        let keys = try PathAssignment.keys(lv.path, evaluator(task), task.env)
        switch lv.root {
        case .variable(let v):
            try PathAssignment.set(&task.env[v.slot], keys[...], value)
        case .state:
            throw SagaError.typeError("'state' can only be assigned in a reducer")
        }
    }

    /// An evaluator for expressions of this task.
    func evaluator(_ task: SagaTask) -> Evaluator {
        Evaluator(
            cancelled: isCancelledContext(task), clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
    }

    /// `cancelled`: true once the task is being cancelled, which only its finally blocks
    /// (and the compensations of its transactions) get to see; false anywhere else, and
    /// false in the finally blocks of a task that failed or reached END.
    func isCancelledContext(_ task: SagaTask) -> Bool {
        task.isCancelling || task.runsForCancelledOwner
    }

    /// Where the statement `task` runs next stands: in its current block, or in the block
    /// around it (for an error raised between statements, as `--max-steps` is).
    private func nextStatementLocation(_ task: SagaTask) -> SourceLocation {
        // Running code counts its own steps: the step loop takes one there only as it enters.
        if case .compiled? = task.frames.last { return task.location }
        if task.pc < task.code.count { return task.code[task.pc].location }
        if case .block(let code, let index)? = task.frames.last, index < code.count { return code[index].location }
        return task.location
    }

    /// Runs statements and frames until the task blocks, yields or its body ends.
    private func stepLoop(_ task: SagaTask) {
        // Steps taken before a yield (see ``Options/yieldAfterSteps``) count toward the limit.
        let steps = task.stepsBeforeYield
        // Written only when set: the write reaches the task's extras.
        if steps != 0 { task.stepsBeforeYield = 0 }
        // Every step counts toward ``Options/maxRunSteps``, added up once when the task stops;
        // a task that would take more in its turn than the run has left stops the run there
        // (an effect-free loop, or one of calls that never block, would otherwise go on). The
        // counts are the ones running code goes on with.
        var counts = CodeSteps(
            self, task, steps: steps, yieldAfter: options.yieldAfterSteps.map { steps + $0 } ?? Int.max, ran: 0,
            runStepsLeft: self.runStepsLeft, maxSteps: options.maxSteps, limitsRunSteps: options.maxRunSteps != nil)
        defer { budget.stepsTaken &+= counts.ran }
        while task.phase == .body {
            // Running code counts its own steps (a loop's first turn's included); while it is
            // on top, the current block is its statements (see ``runCode(_:_:_:)``).
            // Looked at where the frame is: `frames.last` would copy it out.
            if !task.frames.isEmpty, case .compiled(let code) = task.frames[task.frames.count - 1] {
                guard runCode(code, task, &counts) else { return }
                continue
            }
            counts.countWithoutCheck()
            if _slowPath(counts.ran > counts.runStepsLeft), let limit = options.maxRunSteps {
                overran(.steps(limit))
                return
            }
            if counts.steps > counts.yieldAfter {
                yieldBehindEverything(task, steps: counts.steps)
                return
            }
            if counts.steps > options.maxSteps {
                guard tookTooManySteps(task, &counts) else { return }
            }
            // The common case: the next statement of the current block.
            let pc = task.pc
            if pc < task.code.count {
                task.pc = pc &+ 1
                switch executeStatement(task.code[pc], task) {
                case .next: continue
                case .suspended: return
                case .completion(let c):
                    // Past the memory budget, the run stops here (the error that says so
                    // could otherwise be caught, and the task go on allocating).
                    if stopsOverMemory() { return }
                    guard unwind(task, c) else { return }
                case .resumed:
                    // As after any resumption, the count of steps without blocking starts again;
                    // an action processed on the spot counted steps of the run's.
                    counts.restart(
                        from: 0, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: self.runStepsLeft)
                case .entered:
                    // A call that runs inline does not block: its steps count on, so a loop of
                    // calls that never block meets the limit as any loop does.
                    break
                case .called:
                    counts.countWithoutCheck()
                }
                continue
            }
            guard let last = task.frames.indices.last else {
                bodyEnded(task, .normal)
                return
            }
            switch task.frames[last] {
            case .block(let stmts, let index):
                task.frames.removeLast()
                task.code = stmts
                task.pc = index
            case .compiled:
                break  // Taken above.
            case .call(let frame):
                // The function ran off its end: it returns null.
                task.frames.removeLast()
                guard returned(.null, from: frame, task) else { return }
            case .compensating(var remaining, let pending):
                guard let compensation = remaining.popLast() else {
                    task.frames.removeLast()
                    guard unwind(task, pending) else { return }
                    continue
                }
                task.frames[task.frames.count - 1] = .compensating(remaining: remaining, pending: pending)
                runCompensation(compensation, task)
                return
            }
        }
    }

    /// The task took more than `--max-steps` steps without waiting: the error, raised where the
    /// task stands, and the count starts again.
    ///
    /// What runs next (a `catch`) runs in the step that failed: the step loop runs a statement
    /// of the walk's at once; running code takes that step again, so it is taken back.
    ///
    /// - Returns: `true` if the body goes on; `false` if it ended.
    @inline(never)
    private func tookTooManySteps(_ task: SagaTask, _ counts: inout CodeSteps) -> Bool {
        counts.restart(from: 0, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
        let error = Interpreter.tooManySteps(options.maxSteps)
        let at = nextStatementLocation(task)
        guard unwind(task, .throwError(Failure(error: error, trace: trace(task, at: at)))) else { return false }
        if case .compiled = task.frames.last {
            counts.uncount()
            counts.restart(from: -1, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
        }
        return true
    }

    /// Runs one compensation as an owned task; its owner resumes when it ends, whatever happened.
    private func runCompensation(_ compensation: Compensation, _ task: SagaTask) {
        compensationsRun.append(describe(compensation.location))
        let child = newTask(
            name: "compensation", location: compensation.location, kind: .owned, parent: task,
            env: compensation.env, body: compensation.body)
        child.owner = .caller(task)
        child.runsForCancelledOwner = task.isCancelling
        block(task, on: .task(child))
        scheduler.schedule(child)
    }

    /// Leaves blocks until something handles `completion`: a loop (break, continue), a
    /// catch (a thrown error), a finally, or a transaction's compensations.
    ///
    /// - Returns: `true` if the body goes on; `false` if it ended.
    @discardableResult
    func unwind(_ task: SagaTask, _ completion: Completion) -> Bool {
        task.abandonCurrentBlock()
        while let top = task.frames.popLast() {
            switch top {
            case .block, .compensating:
                continue
            case .compiled(let code):
                // Its `try`s and `transaction`s, if any, handle what they can.
                switch code.handle(completion, in: task, compensationRuns: options.compensationRuns) {
                case .goesOn:
                    task.frames.append(top)
                    return true
                case .compensates(let compensations):
                    // The compensations run above the code; then the completion goes on in it.
                    task.frames.append(top)
                    task.frames.append(.compensating(remaining: compensations, pending: completion))
                    return true
                case .leaves:
                    continue
                }
            case .call(let frame):
                restoreCaller(frame, task)
                switch completion {
                case .returnValue(let value): return returned(value, from: frame, task, restored: true)
                // END ends a blocked take in a called function as if by `return` (see “END” in
                // Sagas/README.md).
                case .end: return returned(.null, from: frame, task, restored: true)
                case .throwError, .abort, .cancel:
                    // The caller's block is left too.
                    task.abandonCurrentBlock()
                    continue
                case .normal: return returned(.null, from: frame, task, restored: true)
                }
            }
        }
        bodyEnded(task, completion)
        return false
    }

    /// Gives the caller of an inline call back its variables, its current block and its
    /// call depth.
    private func restoreCaller(_ frame: CallFrame, _ task: SagaTask) {
        task.env = frame.env
        frame.env = []
        task.code = frame.code
        task.pc = frame.pc
        frame.code = []
        task.callDepth -= 1
    }

    /// An inline call returned `value`: the caller goes on with it where it wanted it.
    ///
    /// - Returns: `true` if the body goes on; `false` if it ended (storing the value failed
    ///   and nothing caught that).
    private func returned(_ value: Value, from frame: CallFrame, _ task: SagaTask, restored: Bool = false) -> Bool {
        if !restored { restoreCaller(frame, task) }
        task.target = frame.target
        do {
            try storeResult(value, task)
        } catch {
            // Where a resumed task reports a failed assignment of an effect's value: at the
            // caller's statement, which the caller's restored block leaves before `pc`.
            let at = task.waitingStatementLocation ?? task.location
            return unwind(task, .throwError(Failure(error: error, trace: trace(task, at: at))))
        }
        return true
    }

    /// The items a `for` iterates: a list's elements, or a record's keys in order.
    static func iterationItems(_ value: Value) throws(SagaError) -> [Value] {
        switch value {
        case .list(let items): return items
        case .record(let r): return r.keys.map { .string($0) }
        default: throw SagaError.typeError("for … in needs a list or a record, got \(value.kindName)")
        }
    }
}
