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
        case .error(let failure):
            if case .compensating(_, _, let running) = task.frames.last {
                // The run's list of compensations says which failed, as the warning does.
                if compensationsRun.indices.contains(running) { compensationsRun[running] += " (failed)" }
                output.error(Self.withStack("warning: a compensation failed: \(failure.error.message)", failure))
                break
            }
            guard unwind(task, .throwError(failure)) else { return }
        case .unwind(let completion):
            guard unwind(task, completion) else { return }
        }
        stepLoop(task)
    }

    /// Runs a task whose effect gave `value`: written where its statement wants it, then its
    /// steps.
    ///
    /// Inlined into ``execute(_:)``, its one caller, as is ``storeResult(_:_:)``: a resumption
    /// with a value is the usual one (a `take`'s action, a `call`'s result).
    @inline(__always)
    private func resume(_ task: SagaTask, with value: consuming Value) {
        if case .compensating = task.frames.last {
            // A compensation's value goes nowhere.
            stepLoop(task)
            return
        }
        storeResult(value, task)
        stepLoop(task)
    }

    /// Writes the value of the effect a task was blocked on where the statement wanted it; the
    /// target is left `.discard`.
    ///
    /// `value` is consumed: stored in a slot, it is moved there rather than copied.
    @inline(__always)
    func storeResult(_ value: consuming Value, _ task: SagaTask) {
        let target = task.target
        task.target = .discard
        switch target {
        case .discard:
            break
        case .slot(let slot):
            task.env[slot] = value
        case .temporary(let t):
            task.setTemporary(t, to: value)
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

    /// Runs the task's code until the task blocks, yields or its body ends.
    func stepLoop(_ task: SagaTask) {
        // Steps taken before a yield (see ``Options/yieldAfterSteps``) count toward the limit.
        let steps = task.stepsCarried
        // Written only when set: the write reaches the task's extras.
        if steps != 0 { task.stepsCarried = 0 }
        // Every step counts toward ``Options/maxRunSteps``, added up once when the task stops;
        // a task that would take more in its turn than the run has left stops the run there
        // (an effect-free loop, or one of calls that never block, would otherwise go on).
        var counts = CodeSteps(
            self, task, steps: steps, yieldAfter: options.yieldAfterSteps.map { steps + $0 } ?? Int.max, ran: 0,
            runStepsLeft: self.runStepsLeft, maxSteps: options.maxSteps, limitsRunSteps: options.maxRunSteps != nil)
        defer { budget.stepsTaken &+= counts.ran }
        while task.phase == .body {
            if !task.frames.isEmpty, case .compensating = task.frames[task.frames.count - 1] {
                guard compensate(task, &counts) else { return }
                continue
            }
            if task.pc < task.code.instructionCount {
                guard runCode(task, &counts) else { return }
                continue
            }
            // The code ran to its end: the step that finds it, then the body ends, or the
            // function called inline returns null.
            switch takeStep(task, &counts) {
            case .taken: break
            case .stopped: return
            case .elsewhere: continue
            }
            guard let last = task.frames.indices.last, case .call(let frame) = task.frames[last] else {
                carrySteps(task, counts)
                taskTree.bodyEnded(task, .normal)
                return
            }
            task.frames.removeLast()
            guard returned(.null, from: frame, task) else { return }
        }
    }

    /// Where the code of a function's own task returns or fails: its caller counts on from
    /// the steps the function took without waiting.
    ///
    /// That is as after a function called in the caller's task (see ``Options/maxSteps``).
    /// After a failure for too many steps, the count has started again.
    @inline(__always)
    func carrySteps(_ task: SagaTask, _ counts: borrowing CodeSteps) {
        if case .caller(let caller) = task.owner { caller.stepsCarried = counts.steps }
    }

    /// Runs the next compensation of the frame on top of the task's, or, with none left, lets
    /// the way out that ran them go on: a step, as a statement is.
    ///
    /// - Returns: `true` if the body goes on; `false` if the task stopped.
    private func compensate(_ task: SagaTask, _ counts: inout CodeSteps) -> Bool {
        switch takeStep(task, &counts) {
        case .taken: return runNextCompensation(task)
        case .stopped: return false
        case .elsewhere: return true
        }
    }

    /// Runs the next compensation of the frame on top of the task's, or, with none left, lets
    /// the way out that ran them go on.
    ///
    /// - Returns: `true` if the body goes on; `false` if the task stopped.
    private func runNextCompensation(_ task: SagaTask) -> Bool {
        let last = task.frames.count - 1
        guard last >= 0, case .compensating(var remaining, let pending, _) = task.frames[last] else { return true }
        guard let compensation = remaining.popLast() else {
            task.frames.removeLast()
            return unwind(task, pending)
        }
        task.frames[last] = .compensating(remaining: remaining, pending: pending, running: compensationsRun.count)
        runCompensation(compensation, task)
        return false
    }

    /// What a step that the step loop takes itself led to (see ``takeStep(_:_:)``).
    private enum LoopStep {
        /// The step was taken: what it is for goes on.
        case taken
        /// The task stopped: the run's steps ran out, it yielded, or it ended.
        case stopped
        /// It took too many steps, and the error went where the task goes on.
        case elsewhere
    }

    /// A step the step loop takes itself, outside the code.
    ///
    /// It stands where the code ends and before each compensation. Where it meets a limit, the
    /// run stops, the task yields, or too many steps fail where the task stands.
    @inline(__always)
    private func takeStep(_ task: SagaTask, _ counts: inout CodeSteps) -> LoopStep {
        counts.countWithoutCheck()
        guard _slowPath(counts.steps > counts.bound) else { return .taken }
        return takeCheckedStep(task, &counts)
    }

    /// ``takeStep(_:_:)`` past the counts' bound: which limit it meets, if any.
    @inline(never)
    private func takeCheckedStep(_ task: SagaTask, _ counts: inout CodeSteps) -> LoopStep {
        if _slowPath(counts.ran > counts.runStepsLeft), let limit = options.maxRunSteps {
            overran(.steps(limit))
            return .stopped
        }
        if counts.steps > counts.yieldAfter {
            yieldBehindEverything(task, steps: counts.steps)
            return .stopped
        }
        guard counts.steps > options.maxSteps else { return .taken }
        counts.restart(from: 0, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
        let error = Interpreter.tooManySteps(options.maxSteps)
        guard unwind(task, .throwError(Failure(error: error, trace: trace(task, at: task.location)))) else {
            return .stopped
        }
        // What runs next runs in the step that failed: a compensation at once; a `catch`, whose
        // code takes that step again, with the step taken back.
        if let last = task.frames.indices.last, task.frames[last].isCompensating {
            return runNextCompensation(task) ? .elsewhere : .stopped
        }
        counts.uncount()
        counts.restart(from: -1, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
        return .elsewhere
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

    /// Leaves code until something handles `completion`: a `catch` (a thrown error), a
    /// `finally`, or a transaction's compensations, in the task's code or in its callers'.
    ///
    /// - Returns: `true` if the body goes on; `false` if it ended.
    @discardableResult
    func unwind(_ task: SagaTask, _ completion: Completion) -> Bool {
        while true {
            // Compensations running above the code are left: the code handles what leaves it.
            while let last = task.frames.indices.last, case .compensating = task.frames[last] {
                task.frames.removeLast()
            }
            if let tries = task.tries {
                switch tries.handle(completion, in: task, compensationRuns: options.compensationRuns) {
                case .goesOn:
                    return true
                case .compensates(let compensations):
                    // The compensations run above the code; then the completion goes on in it.
                    task.frames.append(.compensating(remaining: compensations, pending: completion, running: -1))
                    return true
                case .leaves:
                    break
                }
            }
            guard let top = task.frames.popLast() else { break }
            guard case .call(let frame) = top else { continue }
            restoreCaller(frame, task)
            switch completion {
            case .returnValue(let value): return returned(value, from: frame, task, restored: true)
            // END ends a blocked take in a called function as if by `return` (see “END” in
            // Sagas/README.md).
            case .end, .normal: return returned(.null, from: frame, task, restored: true)
            case .throwError, .abort, .cancel:
                // It leaves the caller's code too, unless that handles it.
                continue
            }
        }
        taskTree.bodyEnded(task, completion)
        return false
    }

    /// Gives the caller of an inline call back its variables, its code and its call depth.
    private func restoreCaller(_ frame: CallFrame, _ task: SagaTask) {
        task.env = frame.env
        frame.env = []
        task.leaveCall(frame)
        task.callDepth -= 1
    }

    /// An inline call returned `value`: the caller goes on with it where it wanted it.
    ///
    /// - Returns: `true`: the body goes on.
    private func returned(_ value: Value, from frame: CallFrame, _ task: SagaTask, restored: Bool = false) -> Bool {
        if !restored { restoreCaller(frame, task) }
        task.target = frame.target
        storeResult(value, task)
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
