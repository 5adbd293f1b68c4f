import SagaCore
import SagaLanguage

extension Interpreter {
    /// The error of a task that took more than `maxSteps` steps without waiting.
    static func tooManySteps(_ maxSteps: Int) -> SagaError {
        SagaError(
            kind: "RangeError",
            message:
                "the task ran \(maxSteps) steps without waiting (an endless loop?); raise the limit with --max-steps")
    }

    /// Runs the task's code from where it stands, until the task blocks, yields, calls a
    /// function inline or the code ends.
    ///
    /// `counts` are the step loop's, which the code's steps go on with.
    ///
    /// - Returns: `true` if the step loop goes on with the task; `false` if the task stopped.
    func runCode(_ task: SagaTask, _ counts: inout CodeSteps) -> Bool {
        let code = task.code
        let ev = evaluator(task)
        while true {
            var pc = task.pc
            let exit: CodeExit
            do {
                exit = try run(code, task, ev, pc: &pc, &counts)
            } catch {
                // A `select` that failed let go of the store's state here.
                noState = .null
                guard !counts.tooMany, let call = code.call(containing: pc - 1) else {
                    task.pc = pc
                    if counts.tooMany {
                        // The count starts again, and what runs next (a `catch`) runs in the
                        // step that failed.
                        counts.tooMany = false
                        counts.uncount()
                        counts.restart(
                            from: -1, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
                    } else if stopsOverMemory() {
                        return false
                    }
                    var at = pc > 0 && pc <= code.lines.count ? code.lines[pc - 1] : task.location
                    if at == Code.taskLocation { at = task.location }
                    carrySteps(task, counts)
                    return unwind(task, .throwError(Failure(error: error, trace: trace(task, at: at))))
                }
                // A call's code failed: its statement runs as written, which reports the failure
                // with the function's frame; the code goes on after the call.
                if let temporaries = task.temporaries {
                    CodePlaces.clear(after: call, temporaries, temporaryCount: code.temporaryCount)
                }
                pc = Int(call.returnAt) + 1
                exit = .statement(Int(call.failSite))
            }
            task.pc = pc
            switch exit {
            case .end:
                task.pc = code.instructionCount
                return true
            case .waiting:
                return false
            case .paused:
                if counts.overran, let limit = options.maxRunSteps {
                    overran(.steps(limit))
                    return false
                }
                // As the step loop yields: behind the work that is ready.
                yieldBehindEverything(task, steps: counts.steps)
                return false
            case .statement(let index):
                // The statement runs with the task standing past it, where a failure to store
                // a value it waited for is reported. Held by the code for as long as it runs:
                // read without a retain.
                unowned(unsafe) let site = code.sites[index]
                let outer = runningSite
                runningSite = site
                // Read before the statement runs: the site is held unretained.
                let childAtOnce = site.childTakesTurnAtOnce
                let takesNext = site.takesNext
                if childAtOnce { childTakesTurnAtOnce = true }
                if takesNext { forkTakesNext = true }
                let step: Step
                switch site.operandCount {
                case 0: step = executeStatement(site, &noOperands, task)
                default:
                    var operands = self.operands(of: site, code, task)
                    step = executeStatement(site, &operands, task)
                }
                runningSite = outer
                if childAtOnce { childTakesTurnAtOnce = false }
                if takesNext { forkTakesNext = false }
                switch step {
                case .next:
                    continue
                case .suspended:
                    // A `fork` yields to its body; where the code then only takes an action,
                    // the task's next turn is quiet.
                    if takesNext, case .none = task.wait { task.nextTurnIsQuiet = true }
                    // A `call` of a function that runs as a task of its own: the function's
                    // steps count on from the caller's, as in a function called in the task.
                    if case .task(let child) = task.wait, case .caller(let caller) = child.owner, caller === task {
                        child.stepsCarried = counts.steps
                    }
                    return false
                case .completion(let completion):
                    // Past the memory budget, the run stops here (the error that says so could
                    // otherwise be caught, and the task go on allocating).
                    if stopsOverMemory() { return false }
                    carrySteps(task, counts)
                    return unwind(task, completion)
                case .resumed:
                    // As after any resumption, the count of steps without blocking starts again;
                    // an action processed on the spot counted steps of the run's.
                    counts.restart(
                        from: 0, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: self.runStepsLeft)
                case .entered:
                    // The function's code runs in the step loop; this code goes on when it returns.
                    return true
                }
            case .returns(let place):
                let value = read(place, code, task)
                if stopsOverMemory() { return false }
                carrySteps(task, counts)
                return unwind(task, .returnValue(value))
            case .raises(let place):
                let value = read(place, code, task)
                if stopsOverMemory() { return false }
                carrySteps(task, counts)
                return unwind(task, .throwError(thrown(value, task, at: code.lines[pc - 1])))
            case .finallyEnds:
                // The way out that ran the `finally` block goes on.
                guard let pending = task.tries?.pending.popLast() else { continue }
                carrySteps(task, counts)
                return unwind(task, pending.completion)
            }
        }
    }

    /// The values the code left for the effect of `site` (see ``Code/Site/operands``): a
    /// variable's or a constant's copied, a temporary's moved out.
    private func operands(of site: Code.Site, _ code: Code, _ task: SagaTask) -> EffectOperands {
        EffectOperands(count: site.operandCount) { read(site.operand($0), code, task) }
    }

    /// The value the code left in `place` for the interpreter: a variable's or a constant's
    /// copied, a temporary's moved out.
    private func read(_ place: Code.Place, _ code: Code, _ task: SagaTask) -> Value {
        switch place {
        case .slot(let slot):
            return task.env[Int(slot)]
        case .temporary(let t):
            guard let temporary = task.temporaries.map({ $0 + Int(t) }) else { return .null }
            defer { temporary.initialize(to: .null) }
            return temporary.move()
        case .constant(let c):
            return code.constantBase[Int(c)]
        case .local(let l):
            // A call's argument, for its statement to run over.
            guard let local = task.temporaries.map({ $0 + code.temporaryCount + Int(l) }) else { return .null }
            defer { local.initialize(to: .null) }
            return local.move()
        }
    }

    /// Runs the code over the task's variables, where they lie.
    @inline(__always)
    private func run(
        _ code: Code, _ task: SagaTask, _ ev: Evaluator, pc: inout Int, _ counts: inout CodeSteps
    ) throws(SagaError) -> CodeExit {
        // Code without temporaries reads and writes none: any place will do.
        let temporaries = task.temporaries ?? code.constantBase
        // A task without variables reads none: its empty array is not made unique to be written.
        if task.env.isEmpty {
            return try vm.run(
                code, &noState, temporaries, action: .null, temporaries, ev, pc: &pc, steps: &counts)
        }
        // Code that writes no variable reads them where they lie: the array it may share with
        // the task that started it is not copied to be written.
        if code.writesNoVariables {
            return try task.env.withUnsafeBufferPointer { (env) throws(SagaError) -> CodeExit in
                let variables = env.baseAddress.map { UnsafeMutablePointer(mutating: $0) } ?? temporaries
                return try vm.run(
                    code, &noState, variables, action: .null, temporaries, ev, pc: &pc, steps: &counts)
            }
        }
        // The variables stay the task's while the code runs (a `put` it makes may read them),
        // and nothing but the code writes them meanwhile. A saga's code has no state.
        return try task.env.withUnsafeMutableBufferPointer { (env) throws(SagaError) -> CodeExit in
            try vm.run(
                code, &noState, env.baseAddress ?? temporaries, action: .null, temporaries, ev, pc: &pc,
                steps: &counts)
        }
    }

    /// Whether a call can be made in running code (see ``Code/ValueCall``): not
    /// the one to fail, nor one too deep (its statement then runs as written, which reports
    /// it).
    @inline(__always)
    func mayCallInCode(_ task: SagaTask) -> Bool {
        options.failingCall != callsMade && task.native == nil && task.callDepth < options.maxCallDepth
    }

    /// A call of function `index` made in running code has returned: it is counted,
    /// and traced with its `count` arguments, which `argument` reads in order.
    @inline(__always)
    func calledInCode(_ index: Int, _ count: Int, _ argument: (Int) -> Value, _ task: SagaTask) {
        callsMade &+= 1
        if let runTrace { runTrace.call(task, index, (0..<count).map(argument)) }
    }

    /// A `put` of `action`, statement `site` of `code`, as the statement does it: processed at
    /// once (`true`: its value is the action), or the task blocks until it is (`false`, its
    /// value going into `slot` then, if it is one).
    ///
    /// The task stands at `pc`, past the `put`, while it runs: where a failure to process the
    /// action is reported.
    func putAtOnce(
        _ action: Value, into slot: Int32, _ code: Code, _ site: Int, past pc: Int, _ task: SagaTask
    )
        -> Bool
    {
        task.pc = pc
        task.target = slot >= 0 ? .slot(Int(slot)) : .discard
        if let runTrace { runTrace.noteEffect(at: code.sites[site], task) }
        guard case .dispatched = dispatch(action, from: task) else { return false }
        task.target = .discard
        return true
    }

    /// `let x = select state.key` (`key` -1: `select`, the whole state), statement `site` of
    /// `code`: the value read, or the error reading it fails with.
    ///
    /// A `fork` block running in its parent's turn (`task` `nil`) is not traced: it has no task
    /// yet.
    func select(_ key: Int32, _ code: Code, _ site: Int, _ task: SagaTask?) -> Result<Value, SagaError> {
        if let runTrace, let task { runTrace.noteEffect(at: code.sites[site], task) }
        guard key >= 0 else { return .success(binding.stateValue) }
        do throws(SagaError) {
            return .success(try Evaluator.member(code.keys[Int(key)], of: binding.stateValue))
        } catch {
            return .failure(error)
        }
    }

    /// The start of `select EXPR`, statement `site` of `code`: the store's state, which the
    /// code reads to compute the expression.
    func selectState(_ code: Code, _ site: Int, _ task: SagaTask?) -> Value {
        if let runTrace, let task { runTrace.noteEffect(at: code.sites[site], task) }
        return binding.stateValue
    }

    /// `cancel t`, statement `site` of `code`, of the value at `place`, as the statement does it
    /// where `t` is another task: its cancellation is on its way (nothing, for one that has
    /// ended or is being cancelled already, such as the stand-in for blocks that ended in
    /// their parent's turn, see ``isEndedBodyHandle(_:)``).
    ///
    /// - Returns: `false`, having done nothing, for any other value: the statement runs where
    ///   it stands (the task's own cancellation, a list, an error).
    func cancelInCode(_ place: UnsafePointer<Value>, _ code: Code, _ site: Int, _ task: SagaTask) -> Bool {
        if isEndedBodyHandle(place) {
            if let runTrace { runTrace.noteEffect(at: code.sites[site], task) }
            return true
        }
        guard case .handle(let h) = place.pointee, let target = h.object as? SagaTask, target !== task else {
            return false
        }
        if let runTrace { runTrace.noteEffect(at: code.sites[site], task) }
        // One that has ended or is being cancelled already has nothing to cancel.
        if !target.isDone, !target.isCancelling { scheduler.schedule(taskTree.cancelWork(target)) }
        return true
    }

    /// `join t`, statement `site` of `code`, of the value at `place`, as the statement does it
    /// where `t` is another task that has ended with a value: that value (`null` for the
    /// stand-in for blocks that ended in their parent's turn, see ``isEndedBodyHandle(_:)``).
    ///
    /// - Returns: `nil`, having done nothing, for anything else: the statement runs where it
    ///   stands (it blocks, fails or cancels the task, or joins a list).
    func joinInCode(_ place: UnsafePointer<Value>, _ code: Code, _ site: Int, _ task: SagaTask) -> Value? {
        if isEndedBodyHandle(place) {
            if let runTrace { runTrace.noteEffect(at: code.sites[site], task) }
            return .null
        }
        guard case .handle(let h) = place.pointee, let joined = h.object as? SagaTask, joined !== task, joined.isDone
        else {
            return nil
        }
        switch joined.outcome {
        case .failed?, .cancelled?: return nil
        default: break
        }
        if let runTrace { runTrace.noteEffect(at: code.sites[site], task) }
        return joined.result
    }

    /// A `take` of a literal type, statement `site` of `code`, as the statement does it: the
    /// task blocks, the action it takes going into `slot`, if it is one.
    func take(_ take: UnsafeMutablePointer<Code.Take>, _ code: Code, _ task: SagaTask) {
        let slot = take.pointee.slot
        task.target = slot >= 0 ? .slot(Int(slot)) : .discard
        if let runTrace { runTrace.noteEffect(at: code.sites[Int(take.pointee.site)], task) }
        block(task, on: .take)
        // The pattern is copied once, from where the code keeps it.
        addTaker(Taker(task, pattern: take.pointee.pattern))
    }
}
