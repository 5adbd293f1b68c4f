import SagaCore
import SagaLanguage

extension Interpreter {
    /// The lowered form of a `while` loop (with its condition; `loop` with a `true` literal)
    /// or a `for` loop (`nil`) about to be entered, or `nil` if it has none.
    ///
    /// The condition is made only the first time.
    func loweredLoop(_ condition: @autoclosure () -> Expr?, _ body: [Stmt]) -> LoweredLoop? {
        guard options.shortCuts,
            let key = body.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) })
        else { return nil }
        if let loop = loweredLoops[key] {
            // A body is one loop's: the parser makes each block anew, so the same storage is
            // never the body of a `while` and a `for` (nor of two `while` loops).
            assert((loop.condition == nil) == (condition() == nil), "one body shared by two kinds of loop")
            return loop
        }
        // A loop that does not lower is not remembered: it is found at once (see
        // `LoweredLoopBuilder.canLower`), and the loops that desugaring makes at run time, one
        // for each `retry` (`Desugar`), never lower and would fill the table. A loop that lowers is one of the program's own, so the table stays as small as
        // the program; past `maximumLoweredLoops` entries, a loop is lowered again each time.
        guard let loop = LoweredLoop.lower(condition: condition(), body: body, shapes: callShapes) else { return nil }
        if loweredLoops.count < Self.maximumLoweredLoops { loweredLoops[key] = loop }
        return loop
    }

    /// The most loops whose lowered form is kept (see ``loweredLoop(_:_:)``).
    static let maximumLoweredLoops = 4096

    /// Runs turns of a lowered loop (on top of the task's frames) for as long as each of its
    /// steps can be taken here; anything else is left to the step loop, with the task where
    /// the tree walk would have it.
    ///
    /// Called where the step loop takes a turn of the loop, whose step it has counted;
    /// `steps`, `yieldAfter` and `ran` are the step loop's.
    ///
    /// One function for both kinds of loop, which differ only in their turn: with the body in
    /// a function of its own, every turn would pay for a call.
    ///
    /// `state` holds a `for` loop's items and next index; it is `nil` for a `while` loop.
    ///
    /// - Returns: `true` if the task goes on; `false` if its body ended (a condition failed
    ///   and nothing caught that, or a `return` left it).
    func runLoweredLoop(
        _ loop: LoweredLoop, over state: ForLoop?, _ task: SagaTask, steps: inout Int, yieldAfter: inout Int,
        ran: inout Int, resumingAt resumed: Int? = nil
    ) -> Bool {
        // The step loop meets the limits: a step that would pass the yield budget, the task's
        // step limit or the run's (``Options/maxRunSteps``; a step counts two at most, a call
        // by value) is left to it. `steps` and `ran` grow together between resumptions, so one
        // bound on `steps` stands for all three.
        var bound = stepBound(steps: steps, ran: ran, yieldAfter: yieldAfter)
        let count = loop.steps.count
        let ev = evaluator(task)
        // The body becomes the current block at the first turn that runs it (before the
        // first turn, the current block is the empty one the loop's statement left).
        var bodyIsCurrent = Frame.same(task.code, loop.body)
        // A task resumed inside the body goes on at its step, without a turn first.
        var resumedAt = resumed
        while true {
            var index = 0
            if let step = resumedAt {
                index = step
                resumedAt = nil
            } else {
                // The turn: a `for` loop's next item into its variable, or a `while` loop's
                // condition (if that fails, the walk's turn reports it).
                let goesOn: Bool
                if let state {
                    goesOn = state.index < state.items.count
                    if goesOn {
                        task.env[state.slot] = state.items[state.index]
                        state.index += 1
                    }
                } else if loop.isEndless {
                    goesOn = true
                } else if let test = loop.test, case .bool(let b)? = test.value(task.env) {
                    goesOn = b
                } else if let condition = loop.condition {
                    do {
                        goesOn = try ev.condition(condition, task.env)
                    } catch {
                        return whileTurn(task, condition, body: loop.body)
                    }
                } else {
                    assertionFailure("a `for` loop's body on a `while` loop's frame")
                    goesOn = false
                }
                guard goesOn else {
                    // The current block (the body, or the empty block before the first turn) is done.
                    task.pc = task.code.count
                    task.frames.removeLast()
                    return true
                }
                if !bodyIsCurrent {
                    task.code = loop.body
                    bodyIsCurrent = true
                }
            }
            // The body's steps.
            while index < count {
                let step = loop.steps[index]
                if step.kind == .armEnd && !step.countsStep {
                    index = Int(step.next)
                    continue
                }
                // What the step loop does before a statement: a yield or a step limit due
                // is left to it.
                let next = steps &+ 1
                if next > bound {
                    leave(loop, at: step, task)
                    return true
                }
                switch step.kind {
                case .store:
                    if let value = loop.integers[index]?.value(task.env) {
                        task.env[Int(step.slot)] = value
                    } else if !store(loop, index, into: Int(step.slot), ev, task) {
                        leave(loop, at: step, task)
                        return true
                    }
                    steps = next
                    ran &+= 1
                    index &+= 1
                case .call:
                    guard
                        let value = calledValue(
                            loop, index, Int(step.function), hasArguments: step.hasArguments, ev, task)
                    else {
                        leave(loop, at: step, task)
                        return true
                    }
                    callsMade &+= 1
                    task.env[Int(step.slot)] = value
                    // As the step loop counts a call by value (see `Step.called`): the
                    // statement's step and its `return`'s.
                    steps = next &+ 1
                    ran &+= 2
                    index &+= 1
                case .branch:
                    guard let target = branchTarget(loop, step, ev, task) else {
                        leave(loop, at: step, task)
                        return true
                    }
                    steps = next
                    ran &+= 1
                    index = target
                case .armEnd:
                    steps = next
                    ran &+= 1
                    index = Int(step.next)
                case .breakLoop:
                    // As the walk unwinds a `break`, in the same step: the current block and
                    // the loop are left (an arm's block is not on the frames here).
                    steps = next
                    ran &+= 1
                    task.abandonCurrentBlock()
                    task.frames.removeLast()
                    return true
                case .continueLoop:
                    // On to the turn, a step of its own, as below.
                    steps = next
                    ran &+= 1
                    index = count
                case .returnValue:
                    // The walk's way from here, in the same step: unwinding to the caller (or
                    // the body's end) through the frames, whose `finally` blocks run.
                    guard let value = returnedValue(loop, index, ev, task) else {
                        leave(loop, at: step, task)
                        return true
                    }
                    steps = next
                    ran &+= 1
                    return unwind(task, .returnValue(value))
                case .statement:
                    // As the step loop runs a statement: counted, the task past it in the body.
                    steps = next
                    ran &+= 1
                    task.pc = Int(step.pc) &+ 1
                    switch executeStatement(loop.body[Int(step.pc)], task) {
                    case .next:
                        index &+= 1
                    case .suspended:
                        task.mayResumeLowered = true
                        return false
                    case .completion(let c):
                        return unwind(task, c)
                    case .resumed:
                        // An effect completed at once: steps count again (see `Step.resumed`),
                        // and an action processed on the spot counted steps of the run's.
                        steps = 0
                        yieldAfter = options.yieldAfterSteps ?? Int.max
                        bound = stepBound(steps: 0, ran: ran, yieldAfter: yieldAfter)
                        index &+= 1
                    // No statement lowered this way calls a function today; should one, the
                    // counts are the step loop's (see `Step.entered` and `Step.called`).
                    case .entered:
                        return true
                    case .called:
                        steps &+= 1
                        ran &+= 1
                        index &+= 1
                    }
                case .take:
                    // As the statement does (`take` with a literal type): the task blocks,
                    // past the statement, its value going where the statement stores it.
                    steps = next
                    ran &+= 1
                    task.pc = Int(step.pc) &+ 1
                    task.target = step.slot >= 0 ? .slot(Int(step.slot)) : .discard
                    if tracer != nil { traceEffect(of: loop.body[Int(step.pc)], task) }
                    block(task, on: .take)
                    addTaker(
                        Taker(task, pattern: loop.patterns[Int(step.operand)]))
                    task.mayResumeLowered = true
                    return false
                case .put:
                    // As the statement does (`put` of a literal action): processed at once,
                    // after which steps count again (see `Step.resumed`), or the task blocks.
                    steps = next
                    ran &+= 1
                    task.pc = Int(step.pc) &+ 1
                    let slot = Int(step.slot)
                    task.target = slot >= 0 ? .slot(slot) : .discard
                    if tracer != nil { traceEffect(of: loop.body[Int(step.pc)], task) }
                    guard case .dispatched(let action) = dispatch(loop.actions[Int(step.operand)], from: task) else {
                        // Blocked until the action has been processed.
                        task.mayResumeLowered = true
                        return false
                    }
                    task.target = .discard
                    if slot >= 0 { task.env[slot] = action }
                    steps = 0
                    yieldAfter = options.yieldAfterSteps ?? Int.max
                    bound = stepBound(steps: 0, ran: ran, yieldAfter: yieldAfter)
                    index &+= 1
                }
            }
            // The next turn is a step of its own. Left to the step loop, the task stands at
            // the body's end. (After a `continue`, or an arm of an `if` that ends the body, the
            // walk has an emptied block or the arm's there instead: either way a block that is
            // done, which is all the step loop reads before it takes the turn.)
            let next = steps &+ 1
            if next > bound {
                task.pc = loop.body.count
                return true
            }
            steps = next
            ran &+= 1
        }
    }

    /// The most steps a lowered loop may count (in the step loop's `steps`) before it leaves
    /// the next step to the step loop: the yield budget, the task's step limit, or a step of
    /// two before the run's step limit, whichever comes first.
    @inline(__always)
    private func stepBound(steps: Int, ran: Int, yieldAfter: Int) -> Int {
        let bound = min(yieldAfter, options.maxSteps)
        guard options.maxRunSteps != nil else { return bound }
        // `ran` reaches the steps left when `steps` reaches this.
        let (run, overflow) = steps.addingReportingOverflow(runStepsLeft &- ran &- 1)
        return overflow ? bound : min(bound, run)
    }

    /// Goes on with a task that stands in the body of the lowered loop on top of its frames.
    ///
    /// Such a task is one that a step with an effect (``LoweredLoop/Kind/take``,
    /// ``LoweredLoop/Kind/put``, ``LoweredLoop/Kind/statement``) left blocked or yielding, or
    /// whose step was left to the walk for a yield due.
    ///
    /// It goes on lowered, at the step of the statement the walk would run next. Called as the
    /// step loop starts, with its counts, when the task's `mayResumeLowered` hint is set.
    ///
    /// - Returns: `nil` if the task stands anywhere else (the step loop goes on as usual);
    ///   otherwise what ``runLoweredLoop(_:over:_:steps:yieldAfter:ran:resumingAt:)`` returned.
    func resumeLoweredLoop(_ task: SagaTask, steps: inout Int, yieldAfter: inout Int, ran: inout Int) -> Bool? {
        guard let last = task.frames.indices.last else { return nil }
        let loop: LoweredLoop
        let state: ForLoop?
        switch task.frames[last] {
        case .loweredWhile(let lowered):
            (loop, state) = (lowered, nil)
        case .forLoop(let forLoop):
            guard let lowered = forLoop.lowered else { return nil }
            (loop, state) = (lowered, forLoop)
        default:
            return nil
        }
        let pc = task.pc
        guard pc < loop.bodySteps.count, Frame.same(task.code, loop.body) else { return nil }
        return runLoweredLoop(
            loop, over: state, task, steps: &steps, yieldAfter: &yieldAfter, ran: &ran,
            resumingAt: Int(loop.bodySteps[pc]))
    }

    /// Leaves the rest of the loop's turn to the walk, from `step`: the task is set as the
    /// walk has it there.
    ///
    /// In an arm, that is the arm's block, with the rest of each enclosing block saved under
    /// it, outermost first (as `SagaTask.enter(_:)` saves it, unless the `if` ends its block).
    private func leave(_ loop: LoweredLoop, at step: LoweredLoop.Step, _ task: SagaTask) {
        if step.arm >= 0 {
            let saved = task.frames.count
            var arm = Int(step.arm)
            while arm >= 0 {
                let parent = loop.armParents[arm]
                let block = parent.arm < 0 ? loop.body : loop.arms[Int(parent.arm)]
                let rest = Int(parent.ifIndex) + 1
                if rest < block.count { task.frames.insert(.block(block, rest), at: saved) }
                arm = Int(parent.arm)
            }
            task.code = loop.arms[Int(step.arm)]
        } else {
            // In the body: the walk takes this step now, or, if the task yields first, when it
            // next runs, in which case the loop can take it and the rest of the turn then.
            task.mayResumeLowered = true
        }
        task.pc = Int(step.pc)
    }

    /// Where an `if` goes: its first arm whose condition holds, or past the `if` (its `else`);
    /// `nil` if a condition fails (the walk then runs the `if` and reports it).
    private func branchTarget(_ loop: LoweredLoop, _ step: LoweredLoop.Step, _ ev: Evaluator, _ task: SagaTask) -> Int?
    {
        for t in Int(step.testsStart)..<Int(step.testsEnd) {
            let test = loop.tests[t]
            let holds: Bool
            if let integer = test.integer, case .bool(let b)? = integer.value(task.env) {
                holds = b
            } else {
                do {
                    holds = try ev.condition(loop.conditions[test.condition], task.env)
                } catch {
                    return nil
                }
            }
            if holds { return test.target }
        }
        return Int(step.next)
    }

    /// Stores the value of statement `index`'s expression in `slot`, as the statement does
    /// (see ``Evaluator/assign(_:toSlot:of:)``).
    ///
    /// - Returns: `false` if it fails, the variable unchanged (the statement is then run by
    ///   the tree walk, which reports the error).
    private func store(_ loop: LoweredLoop, _ index: Int, into slot: Int, _ ev: Evaluator, _ task: SagaTask) -> Bool {
        do {
            try ev.assign(loop.expressions[index], toSlot: slot, of: &task.env)
            return true
        } catch {
            return false
        }
    }

    /// The value of statement `index`'s call of `function`, a one-`return` function, or `nil`
    /// if the call cannot be made here.
    ///
    /// It cannot when the call would fail (injected), exceeds the call depth, is made by a
    /// native saga, or its arguments or value fail; ``callIntoSlot(_:_:_:_:_:)`` then makes
    /// it.
    ///
    /// The value of statement `index`'s `return`, or `nil` if it fails (the statement is then
    /// run by the tree walk, which reports the error).
    private func returnedValue(_ loop: LoweredLoop, _ index: Int, _ ev: Evaluator, _ task: SagaTask) -> Value? {
        do {
            return try ev.eval(loop.expressions[index], task.env)
        } catch {
            return nil
        }
    }

    private func calledValue(
        _ loop: LoweredLoop, _ index: Int, _ function: Int, hasArguments: Bool, _ ev: Evaluator, _ task: SagaTask
    ) -> Value? {
        guard options.failingCall != callsMade, task.native == nil, task.callDepth < options.maxCallDepth else {
            return nil
        }
        if frameSizes[function] == 0 {
            // A function without variables needs no frame at all.
            if tracer != nil { traceCall(task, function, []) }
            return try? ev.eval(loop.expressions[index], [])
        }
        return valueCall(
            function, loop.expressions[index], arguments: hasArguments ? loop.arguments[index] : [], over: task.env,
            task, ev)
    }
}
