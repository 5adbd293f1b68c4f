import SagaCore
import SagaLanguage

extension Interpreter {
    /// Runs an effect statement (or `compensate`) of a task, where its code stands, over the
    /// values of its effect's operands.
    func executeStatement(_ site: Code.Site, _ operands: inout EffectOperands, _ task: SagaTask) -> Step {
        let stmt = site.statement
        do throws(SagaError) {
            switch stmt {
            // The effect is matched in the same pattern: binding it first would copy it and
            // then its payload.
            case .declare(let v, _, .effect(.call(.function(let index, _), _, let loc)), _):
                if let runTrace { runTrace.noteEffect(of: stmt, task) }
                return try callIntoSlot(v.slot, index, operands, task, loc)
            case .declare(let v, _, .effect(let effect), _):
                task.target = .slot(v.slot)
                return try runEffect(effect, &operands, task)
            case .assign(let lv, .effect(let effect), _):
                if lv.path.isEmpty, case .variable(let v) = lv.root {
                    if case .call(.function(let index, _), _, let loc) = effect {
                        if let runTrace { task.tracedEffect = runTrace.effectDescription(effect) }
                        return try callIntoSlot(v.slot, index, operands, task, loc)
                    }
                    task.target = .slot(v.slot)
                } else {
                    // Through a path: the code stores it from there (see ``Code/Site/result``).
                    task.target = .temporary(Int(site.result))
                }
                return try runEffect(effect, &operands, task)
            case .effect(let effect, _):
                // A `race` or `all` entry's effect gives its value to the entry's code (see
                // ``Compiler/effectTask(_:at:slotCount:returnedValues:)``).
                task.target = site.result >= 0 ? .temporary(Int(site.result)) : .discard
                return try runEffect(effect, &operands, task)
            case .declare(_, _, .expr, _), .assign(_, .expr, _), .log, .throw, .break, .continue, .if, .try,
                .transaction, .while, .loop, .for, .return:
                // Instructions of the task's code, never a statement it runs where it stands.
                throw SagaError(kind: "InternalError", message: "this statement cannot run on its own")
            case .compensate(let body, let loc):
                let compensation = Compensation(body: body, env: task.env, location: loc)
                guard task.addCompensations([compensation]) else {
                    throw SagaError(kind: "StateError", message: "compensate must be inside a transaction")
                }
            }
        } catch {
            return .completion(.throwError(Failure(error: error, trace: trace(task, at: stmt.location))))
        }
        return .next
    }

    /// The code of the block of `site`'s `fork`, over a frame of `size` variables, found and
    /// kept with the site (see ``Code/Site/blockCodeReference``).
    private func keepBlockCode(of site: Code.Site, size: Int) -> Code? {
        guard let block = site.forkBlock else { return nil }
        let code = self.code(of: block, slotCount: size)
        site.keepBlockCode(code, size: size)
        return code
    }

    /// A ``Code/Instruction/forkBlock(site:)`` of `code`'s statement `index`, the code standing
    /// at `pc`, past it: the `fork` as its statement runs it (``startBlock(_:frame:kind:from:at:sharesFrame:)``),
    /// but where the code stands, the child's frame a copy of the task's variables, which the
    /// code goes on writing.
    ///
    /// - Returns: where the code leaves for the interpreter: `nil` to go on (`resumed`: the
    ///   child took its first turn, after which the task's count of steps starts again),
    ///   `.waiting` with `pc` where the task stands if it now waits or yields, or the statement,
    ///   to run where it stands, where the `fork` would fail (too many tasks, the memory
    ///   budget), having done nothing.
    func forkInCode(
        _ code: Code, _ index: Int, past pc: inout Int, _ task: SagaTask
    ) -> (
        exit: CodeExit?, resumed: Bool
    ) {
        // Held by the code for as long as it runs: read without a retain.
        unowned(unsafe) let site = code.sites[index]
        let size = site.forkFrameSize >= 0 ? Int(site.forkFrameSize) : task.env.count
        guard taskTree.liveTasks < options.maxTasks, budget.memoryWatch?.isExceeded != true else {
            return (.statement(index), false)
        }
        // The site holds its block's code: read without a retain once it has it.
        if let kept = site.blockCodeReference, site.blockCodeSize == size {
            return kept._withUnsafeGuaranteedRef { forkInCode(site, $0, size, past: &pc, task) }
        }
        guard let body = keepBlockCode(of: site, size: size) else { return (.statement(index), false) }
        return forkInCode(site, body, size, past: &pc, task)
    }

    /// ``forkInCode(_:_:past:_:)`` of the block's code `body`, over a frame of `size`.
    @inline(__always)
    private func forkInCode(
        _ site: Code.Site, _ body: Code, _ size: Int, past pc: inout Int, _ task: SagaTask
    ) -> (exit: CodeExit?, resumed: Bool) {
        // As at a statement: the task stands past it while it runs.
        task.pc = pc
        if let runTrace { runTrace.noteEffect(at: site, task) }
        task.target = site.forkSlot >= 0 ? .slot(Int(site.forkSlot)) : .discard
        let takesNext = site.takesNext
        let result: EffectResult
        if takesNext || site.childTakesTurnAtOnce,
            let inline = startInline(body, frame: size, task, site, at: site.forkLocation)
        {
            result = inline
        } else {
            unowned(unsafe) let outer = runningSite
            runningSite = site
            if site.childTakesTurnAtOnce { childTakesTurnAtOnce = true }
            if takesNext { forkTakesNext = true }
            result = startBlock(
                body, frame: size, kind: .attached, from: task, at: site.forkLocation, sharesFrame: false)
            runningSite = outer
            childTakesTurnAtOnce = false
            forkTakesNext = false
        }
        switch runEffectResult(result, task) {
        case .next:
            return (nil, false)
        case .resumed:
            return (nil, true)
        case .suspended:
            // A `fork` yields to its body; where the code then only takes an action, the
            // task's next turn is quiet.
            if takesNext, case .none = task.wait { task.nextTurnIsQuiet = true }
        case .completion(let completion):
            // A `fork` of a block completes in none of these ways; should it, as the step loop
            // would, in the task's next turn.
            task.resumption = .unwind(completion)
            scheduler.schedule(task)
        case .entered:
            break
        }
        pc = task.pc
        return (.waiting, false)
    }

    /// What `throw` of `value` at `location` throws: the error a `catch` caught, thrown again
    /// (`retry` does so with its last attempt's), as it was first thrown, where it is
    /// reported; otherwise a new error (see ``thrownError(_:)``).
    func thrown(_ value: Value, _ task: SagaTask, at location: SourceLocation) -> Failure {
        if let caught = task.lastCaught, caught.error.value == value { return caught }
        return Failure(error: Interpreter.thrownError(value), trace: trace(task, at: location))
    }

    /// `throw EXPR`: a string becomes `{message: s}`; a record is thrown as is; anything
    /// else becomes `{message: <its JSON>}`.
    static func thrownError(_ value: Value) -> SagaError {
        switch value {
        case .string(let s): return SagaError(value: ["message": .string(s)])
        case .record: return SagaError(value: value)
        default: return SagaError(value: ["message": .string(value.canonicalJSON)])
        }
    }

    /// Runs an effect statement's effect: a value goes where the statement wants it; if the
    /// effect woke other tasks, this one yields to them first.
    func runEffect(_ effect: Effect, _ operands: inout EffectOperands, _ task: SagaTask) throws(SagaError) -> Step {
        if let runTrace { task.tracedEffect = runTrace.effectDescription(effect) }
        return runEffectResult(try perform(effect, &operands, task), task)
    }

    /// What a statement does with what its effect did.
    ///
    /// Inlined: called out of line, every effect statement would pay for the call.
    @inline(__always)
    func runEffectResult(_ result: EffectResult, _ task: SagaTask) -> Step {
        switch result {
        case .value(let value):
            storeResult(value, task)
            return yieldIfWoken(task)
        case .suspended:
            return .suspended
        case .completion(let c):
            return .completion(c)
        case .entered:
            return .entered
        case .dispatched(let action):
            // Nothing was woken, so nothing runs before the task goes on.
            storeResult(action, task)
            return .resumed
        case .resumedAfterChild(let handle):
            storeResult(handle, task)
            return turnAfterChild(task)
        case .resumedAfterChildStored:
            return turnAfterChild(task)
        }
    }

    /// The turn of a task whose child has taken its first turn in the task's `fork`, as the
    /// run loop would give it next: behind the work the child made, if any; otherwise at once,
    /// counted as a turn against the run's limits, with its count of steps starting again.
    func turnAfterChild(_ task: SagaTask) -> Step {
        if scheduler.stepMadeWork || (budget.checksEachTurn && !withinRunLimits()) {
            yieldTask(task)
            return .suspended
        }
        return .resumed
    }

    /// After an effect that completed at once: if it woke other tasks, this one yields to
    /// them first.
    @inline(__always)
    func yieldIfWoken(_ task: SagaTask) -> Step {
        if !scheduler.stepMadeWork { return .next }
        yieldTask(task)
        return .suspended
    }

    /// Lets the work this task caused run first; the task goes on right after it.
    func yieldTask(_ task: SagaTask) {
        task.token &+= 1
        task.resumption = .start
        task.nextTurnIsQuiet = false
        scheduler.schedule(task)
    }

    /// A task that used up its steps before a yield (``Options/yieldAfterSteps``) goes on
    /// behind everything ready and every queued action; `steps` count on toward the limit.
    @inline(never)
    func yieldBehindEverything(_ task: SagaTask, steps: Int) {
        task.stepsCarried = steps
        task.token &+= 1
        task.resumption = .start
        task.nextTurnIsQuiet = false
        scheduler.scheduleLast(task)
    }
}
