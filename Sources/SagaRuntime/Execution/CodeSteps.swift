import SagaCore
import SagaLanguage

/// The steps that code run by ``VM/run(_:_:_:action:_:_:pc:steps:)`` counts: a
/// reducer's loop turns, or a saga task's steps.
///
/// A task's step loop counts its statements' steps here, and the code of the task's loops
/// goes on with the same counts, with the same checks at each step (see
/// ``Interpreter/runCode(_:_:_:)``).
struct CodeSteps {
    /// The machine whose count of a reducer's loop turns this is (see ``VM/countStep()``);
    /// `nil` for a saga's steps.
    private unowned(unsafe) let reducer: VM?
    /// Whether ``reducer`` is set: the code is a reducer's.
    let isReducer: Bool
    /// The interpreter and the task whose steps are counted, which make its calls by value
    /// (see ``called(_:_:_:)``); `nil` for a reducer's.
    ///
    /// Held unretained (the caller holds both while the code runs): each host call would
    /// otherwise retain and release them.
    private let interpreter: Unmanaged<Interpreter>?
    private let task: Unmanaged<SagaTask>?
    /// A `fork` block running in its parent's turn, with no task (see
    /// ``Interpreter/runInline(_:frame:parent:at:)``): its `put`s go through
    /// ``Interpreter/putInline(_:into:_:_:past:_:)``.
    private let inline: UnsafeMutablePointer<Interpreter.InlineBodyRun>?
    /// Steps since the task last waited (see ``Interpreter/Options/maxSteps``).
    private(set) var steps = 0
    /// The step past which the task yields (see ``Interpreter/Options/yieldAfterSteps``).
    private(set) var yieldAfter = Int.max
    /// Steps taken in this turn of the task, which count toward the run's limit.
    private(set) var ran = 0
    /// Steps the run has left (see ``Interpreter/Options/maxRunSteps``).
    private(set) var runStepsLeft = Int.max
    private let maxSteps: Int
    /// Whether the run has a limit of steps.
    private let limitsRunSteps: Bool
    /// Set when a step paused the code because the run's steps ran out (otherwise a pause
    /// is a yield).
    var overran = false
    /// Set when a step failed because the task took too many.
    var tooMany = false
    /// The most ``steps`` may reach before a step needs a closer look.
    ///
    /// It is the least of the yield budget, the task's limit and the run's (which ``ran``
    /// reaches as ``steps`` reaches it, the two growing together); below it, a step only
    /// counts. A reducer's is below any count, so that each of its steps is counted by the
    /// reducer.
    private(set) var bound = Int.min

    /// A reducer's loop turns, counted by `vm`.
    @inline(__always)
    init(reducerRunIn vm: VM) {
        self.reducer = vm
        isReducer = true
        interpreter = nil
        task = nil
        inline = nil
        maxSteps = Int.max
        limitsRunSteps = false
    }

    /// A saga task's steps, from the step loop's counts.
    init(
        _ interpreter: Interpreter, _ task: SagaTask, steps: Int, yieldAfter: Int, ran: Int, runStepsLeft: Int,
        maxSteps: Int, limitsRunSteps: Bool
    ) {
        reducer = nil
        isReducer = false
        self.interpreter = .passUnretained(interpreter)
        self.task = .passUnretained(task)
        inline = nil
        self.steps = steps
        self.yieldAfter = yieldAfter
        self.ran = ran
        self.runStepsLeft = runStepsLeft
        self.maxSteps = maxSteps
        self.limitsRunSteps = limitsRunSteps
        bound = boundOfSteps()
    }

    /// The steps of a `fork` block running in its parent's turn (`run`), which no limit can stop
    /// part-way (see ``Code/inlineSteps``): counted, toward the run's steps.
    init(
        _ interpreter: Interpreter, inline run: UnsafeMutablePointer<Interpreter.InlineBodyRun>, yieldAfter: Int,
        maxSteps: Int
    ) {
        reducer = nil
        isReducer = false
        self.interpreter = .passUnretained(interpreter)
        task = nil
        inline = run
        self.yieldAfter = yieldAfter
        self.maxSteps = maxSteps
        limitsRunSteps = false
        bound = boundOfSteps()
    }

    /// See ``bound``.
    private func boundOfSteps() -> Int {
        var bound = min(yieldAfter, maxSteps)
        // A task's steps look for a stop asked for (a signal) and at the memory budget this
        // often, however long it runs without waiting.
        if task != nil, let interpreter {
            bound = min(bound, steps &+ interpreter._withUnsafeGuaranteedRef { $0.stopCheckPace.steps })
        }
        if limitsRunSteps {
            let (run, overflow) = steps.addingReportingOverflow(runStepsLeft &- ran)
            if !overflow { bound = min(bound, run) }
        }
        return bound
    }

    /// After the task's count starts again (a wait, or a step limit met), with the yield budget
    /// and the steps the run has left.
    mutating func restart(from count: Int, yieldAfter: Int, runStepsLeft: Int) {
        steps = count
        self.yieldAfter = yieldAfter
        self.runStepsLeft = runStepsLeft
        bound = boundOfSteps()
    }

    /// Takes back the step that failed: what runs next runs in that step, as in the step loop.
    mutating func uncount() {
        ran &-= 1
    }

    /// A step the task takes without a check (a call by value's `return`): the next step
    /// checks.
    @inline(__always)
    mutating func countWithoutCheck() {
        steps &+= 1
        ran &+= 1
    }

    /// A ``Code/Instruction/step``: `false` pauses the code before it (it is taken again
    /// when the code goes on); throws when too many steps were taken.
    @inline(__always)
    mutating func step() throws(SagaError) -> Bool {
        steps &+= 1
        ran &+= 1
        if _fastPath(steps <= bound) { return true }
        return try checkedStep()
    }

    /// A step past ``bound``: which limit it meets, if any.
    private mutating func checkedStep() throws(SagaError) -> Bool {
        if let reducer {
            try reducer.countStep()
            return true
        }
        if ran > runStepsLeft, limitsRunSteps {
            overran = true
            return false
        }
        if steps > yieldAfter { return false }
        if steps > maxSteps {
            tooMany = true
            throw Interpreter.tooManySteps(maxSteps)
        }
        // A stop asked for, or the memory budget passed, pauses the task, as a yield does, for
        // the run loop to stop the run (see ``Interpreter/stopRun()`` and ``RunBudget``): a
        // task that never waits is stopped by them too.
        if let interpreter, interpreter._withUnsafeGuaranteedRef({ $0.looksForStop() }) {
            return false
        }
        bound = boundOfSteps()
        return true
    }

    /// A turn of a `for` loop that goes on: a reducer's counts; a saga's loop counts its turn
    /// at the step before it.
    @inline(__always)
    mutating func forTurn() throws(SagaError) {
        // Tested before the reducer is bound: binding it costs a retain, even of nothing.
        if isReducer, let reducer { try reducer.countStep() }
    }

    /// Whether a ``Code/Instruction/call(_:)`` can be made in the code (see
    /// ``Interpreter/mayCallInCode(_:)``).
    @inline(__always)
    func mayCall() -> Bool {
        guard let interpreter, let task else { return false }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            task._withUnsafeGuaranteedRef { interpreter.mayCallInCode($0) }
        }
    }

    /// A ``Code/Instruction/callReturn(_:_:)`` of `code`'s call `index` with the value in
    /// `place`: the call is counted as a call by value is (its `return`'s step, after the
    /// statement's) and traced; its value goes into its target, and its locals are
    /// set back to null.
    @inline(__always)
    mutating func called(_ index: Int32, _ place: Code.Place, _ code: Code, _ places: CodePlaces) {
        // Held by the code for as long as it runs: read without a retain.
        unowned(unsafe) let call = code.valueCalls[Int(index)]
        guard let interpreter, let task else { return }
        interpreter._withUnsafeGuaranteedRef { interpreter in
            task._withUnsafeGuaranteedRef {
                interpreter.calledInCode(
                    Int(call.function), call.argumentCount, { places.read(call.argumentBase[$0]) }, $0)
            }
        }
        countWithoutCheck()
        places.write(places.read(place), call.target)
        if !call.locals.isEmpty {
            for l in call.locals { places.locals[Int(l)] = .null }
        }
    }

    /// A ``Code/Instruction/put(_:)`` of `action` into `slot`, statement `site` of `code`, whose
    /// code goes on at `pc`, as the statement does it: the action as processed, the task's
    /// count of steps starting again as after a wait; `nil` if the task now waits for it to be
    /// processed.
    @inline(__always)
    mutating func put(_ action: Value, into slot: Int32, _ code: Code, _ site: Int, past pc: Int) -> Bool {
        guard let interpreter else { return false }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            let processed: Bool
            if let task {
                processed = task._withUnsafeGuaranteedRef {
                    interpreter.putAtOnce(action, into: slot, code, site, past: pc, $0)
                }
            } else if let inline {
                processed = interpreter.putInline(action, into: slot, code, site, past: pc, &inline.pointee)
            } else {
                processed = false
            }
            guard processed else { return false }
            restart(
                from: 0, yieldAfter: interpreter.options.yieldAfterSteps ?? Int.max,
                runStepsLeft: interpreter.runStepsLeft)
            return true
        }
    }

    /// A ``Code/Instruction/take(_:)`` of `pattern` into `slot`, statement `site` of `code`,
    /// as the statement does it: the task waits.
    @inline(__always)
    mutating func take(_ take: UnsafeMutablePointer<Code.Take>, _ code: Code) {
        guard let interpreter, let task else { return }
        interpreter._withUnsafeGuaranteedRef { interpreter in
            task._withUnsafeGuaranteedRef { interpreter.take(take, code, $0) }
        }
    }

    /// A ``Code/Instruction/forkBlock(site:)``, statement `site` of `code`, the code standing at
    /// `pc`, past it (see ``Interpreter/forkInCode(_:_:past:_:)``): where the code leaves for
    /// the interpreter, or `nil` to go on, the count of steps starting again after a child's
    /// first turn.
    @inline(__always)
    mutating func fork(_ code: Code, _ site: Int, past pc: inout Int) -> CodeExit? {
        guard let interpreter, let task else { return .statement(site) }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            let (exit, resumed) = task._withUnsafeGuaranteedRef { interpreter.forkInCode(code, site, past: &pc, $0) }
            if resumed {
                restart(
                    from: 0, yieldAfter: interpreter.options.yieldAfterSteps ?? Int.max,
                    runStepsLeft: interpreter.runStepsLeft)
            }
            return exit
        }
    }

    /// A ``Code/Instruction/cancelTask(slot:site:)`` of `value`, statement `site` of `code`:
    /// whether it was cancelled where it stands (see ``Interpreter/cancelInCode(_:_:_:_:)``);
    /// otherwise the statement runs where it stands.
    @inline(__always)
    func cancel(_ place: UnsafePointer<Value>, _ code: Code, _ site: Int) -> Bool {
        guard let interpreter, let task else { return false }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            task._withUnsafeGuaranteedRef { interpreter.cancelInCode(place, code, site, $0) }
        }
    }

    /// A ``Code/Instruction/joinTask(slot:into:site:)`` of `value`, statement `site` of `code`:
    /// the value of a task that has ended with one (see ``Interpreter/joinInCode(_:_:_:_:)``);
    /// `nil` for the statement to run where it stands.
    @inline(__always)
    func join(_ place: UnsafePointer<Value>, _ code: Code, _ site: Int) -> Value? {
        guard let interpreter, let task else { return nil }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            task._withUnsafeGuaranteedRef { interpreter.joinInCode(place, code, site, $0) }
        }
    }

    /// A ``Code/Instruction/select(key:slot:site:)`` of `code`'s `key` (-1: the whole state),
    /// statement `site` of `code`: the value, or the error it fails with (see
    /// ``Interpreter/select(_:_:_:_:)``).
    @inline(__always)
    func select(_ key: Int32, _ code: Code, _ site: Int) -> Result<Value, SagaError> {
        guard let interpreter else { return .success(.null) }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            guard let task else { return interpreter.select(key, code, site, nil) }
            return task._withUnsafeGuaranteedRef { interpreter.select(key, code, site, $0) }
        }
    }

    /// A ``Code/Instruction/selectState(site:)``, statement `site` of `code`: the store's
    /// state, which the code reads until the `select` ends.
    func selectState(_ code: Code, _ site: Int) -> Value {
        guard let interpreter else { return .null }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            guard let task else { return interpreter.selectState(code, site, nil) }
            return task._withUnsafeGuaranteedRef { interpreter.selectState(code, site, $0) }
        }
    }

    /// After an effect the code completed at once: whether work it made is waiting, the
    /// task then yielding to it (see ``Interpreter/yieldIfWoken(_:)``), its code going on
    /// after the effect.
    @inline(__always)
    func yieldsToWork() -> Bool {
        guard let interpreter, let task else { return false }
        return interpreter._withUnsafeGuaranteedRef { interpreter in
            guard interpreter.scheduler.stepMadeWork else { return false }
            task._withUnsafeGuaranteedRef { interpreter.yieldTask($0) }
            return true
        }
    }

    /// A ``Code/Instruction/log(_:)``: the line goes to the transcript.
    func log(_ line: String) {
        interpreter?._withUnsafeGuaranteedRef { $0.emit(line) }
    }

    /// A ``Code/Instruction/tryBegin(_:)`` of a saga's code: the task keeps the handler; a
    /// block running in its parent's turn keeps it with the interpreter until it has a task
    /// (see ``Interpreter/inlineHandlers``).
    @inline(__always)
    func beginTry(_ handler: Code.Handler) {
        if let task { return task._withUnsafeGuaranteedRef { $0.beginTry(handler) } }
        if inline != nil { interpreter?._withUnsafeGuaranteedRef { $0.inlineHandlers.append(handler) } }
    }

    /// A ``Code/Instruction/tryEnd`` of a saga's code (see ``CodeTries/endTry(_:)``).
    @inline(__always)
    func endTry() {
        if let task { return task._withUnsafeGuaranteedRef { $0.endTry() } }
        if inline != nil { interpreter?._withUnsafeGuaranteedRef { _ = $0.inlineHandlers.popLast() } }
    }

    /// A ``Code/Instruction/finallyLeave`` of a saga's code: the way out that ran the `finally`
    /// block is dropped.
    @inline(__always)
    func leaveFinally() {
        task?._withUnsafeGuaranteedRef { $0.leaveFinally() }
    }
}
