import SagaCore
import SagaLanguage

extension Interpreter {
    /// The code of a loop, `try` or `transaction` statement about to be entered: compiled
    /// when it first runs, with the task's variables, and kept by its body (the parser makes
    /// each block anew, so one body is one statement's).
    ///
    /// - Throws: if it does not compile, which only a program the checker refuses can make.
    func compiledBlock(_ statement: Stmt, _ body: Block, _ task: SagaTask) throws(SagaError) -> RunningCode {
        guard let running = codeStore.entering(statement, body, slotCount: task.env.count, callShapes: callShapes)
        else {
            throw SagaError(kind: "InternalError", message: "this statement cannot be compiled")
        }
        return running
    }

    /// The error of a task that took more than `maxSteps` steps without waiting.
    static func tooManySteps(_ maxSteps: Int) -> SagaError {
        SagaError(
            kind: "RangeError",
            message:
                "the task ran \(maxSteps) steps without waiting (an endless loop?); raise the limit with --max-steps")
    }

    /// Runs the code on top of the task's frames from where it stands, until the task blocks,
    /// yields, calls a function inline or leaves the code.
    ///
    /// `counts` are the step loop's, which the code's steps go on with.
    ///
    /// - Returns: `true` if the step loop goes on with the task; `false` if the task stopped.
    func runCode(_ running: RunningCode, _ task: SagaTask, _ counts: inout CodeSteps) -> Bool {
        let code = running.code
        let ev = evaluator(task)
        // The code's `try`s go to it from its steps; it is held by the task's frame meanwhile.
        counts.running = .passUnretained(running)
        while true {
            var pc = running.pc
            let exit: CodeExit
            do {
                exit = try run(code, running, task, ev, pc: &pc, &counts)
            } catch {
                guard !counts.tooMany, let call = code.call(containing: pc - 1) else {
                    running.pc = pc
                    if counts.tooMany {
                        // As the step loop does: the count starts again, and what runs next (a
                        // `catch`) runs in the step that failed.
                        counts.tooMany = false
                        counts.uncount()
                        counts.restart(
                            from: -1, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: counts.runStepsLeft)
                    } else if stopsOverMemory() {
                        return false
                    }
                    var at = pc > 0 && pc <= code.lines.count ? code.lines[pc - 1] : task.location
                    if at == Code.taskLocation { at = task.location }
                    return unwind(task, .throwError(Failure(error: error, trace: trace(task, at: at))))
                }
                // A call's code failed: its statement runs as written, which reports the failure
                // with the function's frame; the code goes on after the call.
                CodePlaces.clear(after: call, running.temporaries, temporaryCount: code.temporaryCount)
                pc = Int(call.returnAt) + 1
                exit = .statement(Int(call.site))
            }
            running.pc = pc
            switch exit {
            case .end:
                // The task's current block is the code's statements, if one ran (see below):
                // left with it.
                if !task.code.isEmpty { task.abandonCurrentBlock() }
                task.frames.removeLast()
                codeStore.finished(running)
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
                // The statement runs as the walk runs it, the task standing past it in the
                // code's statements (where a failure to store a value it waited for is
                // reported); the step loop goes on with the code, not with the statements after
                // it. The array is set once per entry into the code.
                if !Frame.same(task.code, code.siteStatements) { task.code = code.siteStatements }
                task.pc = index &+ 1
                // Held by the code for as long as it runs: read without a retain.
                unowned(unsafe) let site = code.sites[index]
                switch executeStatement(site.statement, task) {
                case .next:
                    continue
                case .suspended:
                    return false
                case .completion(let completion):
                    if stopsOverMemory() { return false }
                    return unwind(task, completion)
                case .resumed:
                    // As the step loop does after a `put` processed on the spot.
                    counts.restart(
                        from: 0, yieldAfter: options.yieldAfterSteps ?? Int.max, runStepsLeft: self.runStepsLeft)
                case .entered:
                    // The function runs in the step loop; the code goes on when it returns.
                    return true
                case .called:
                    counts.countWithoutCheck()
                }
            case .finallyEnds:
                // The way out that ran the `finally` block goes on.
                guard let pending = running.pending.popLast() else { continue }
                return unwind(task, pending.completion)
            }
        }
    }

    /// Runs the code over the task's variables, where they lie.
    @inline(__always)
    private func run(
        _ code: Code, _ running: RunningCode, _ task: SagaTask, _ ev: Evaluator, pc: inout Int,
        _ counts: inout CodeSteps
    ) throws(SagaError) -> CodeExit {
        // The variables stay the task's while the code runs (a `put` it makes may read them),
        // and nothing but the code writes them meanwhile. A saga's code has no state.
        try task.env.withUnsafeMutableBufferPointer { (env) throws(SagaError) -> CodeExit in
            // A loop of a task without variables reads none.
            try reducers.run(
                code, &noState, env.baseAddress ?? running.temporaries, action: .null, running.temporaries, ev, pc: &pc,
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
        if tracer != nil { traceCall(task, index, (0..<count).map(argument)) }
    }

    /// A `put` of a literal action, statement `site` of `code`, as the statement does it:
    /// processed at once (its value the action as processed), or the task blocks until it is
    /// (`nil`, its value going into `slot` then, if it is one).
    func putAtOnce(_ action: Value, into slot: Int32, _ code: Code, _ site: Int, _ task: SagaTask) -> Value? {
        task.target = slot >= 0 ? .slot(Int(slot)) : .discard
        if tracer != nil { traceEffect(at: code.sites[site], task) }
        guard case .dispatched(let processed) = dispatch(action, from: task) else { return nil }
        task.target = .discard
        return processed
    }

    /// A `take` of a literal type, statement `site` of `code`, as the statement does it: the
    /// task blocks, the action it takes going into `slot`, if it is one.
    func take(_ take: UnsafeMutablePointer<Code.Take>, _ code: Code, _ task: SagaTask) {
        let slot = take.pointee.slot
        task.target = slot >= 0 ? .slot(Int(slot)) : .discard
        if tracer != nil { traceEffect(at: code.sites[Int(take.pointee.site)], task) }
        block(task, on: .take)
        // The pattern is copied once, from where the code keeps it.
        addTaker(Taker(task, pattern: take.pointee.pattern))
    }
}
