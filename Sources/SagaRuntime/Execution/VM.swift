import SagaCore

/// The machine that runs compiled code (``Code``): a reducer's body, a saga task's, a `take`'s
/// condition, instruction by instruction over numbered places (see ``run(_:_:_:action:_:_:pc:steps:)``).
///
/// One machine runs all the code of an interpreter's run: the interpreter runs each task's
/// code on it, and the ``ReducerRunner`` each reducer's. Between instructions it keeps what a
/// reducer's run needs: the undo log of the state, the reducer's `try`s and its count of loop
/// turns. A saga's code keeps its `try`s and steps with its task (see ``CodeSteps``).
///
/// Its mutable fields are unchecked for exclusivity, as ``SagaTask``'s are: code runs on the
/// interpreter's scheduler alone, one run at a time, and the checks would be paid at every
/// instruction that writes the state.
final class VM {
    /// Whether the running reducer logs what it changes.
    @exclusivity(unchecked) var logging = true
    /// The clock, for `now()`; set by the interpreter.
    ///
    /// Strong: a clock holds nothing, so there is no cycle, and a weak load costs two atomic
    /// operations per reducer run.
    @exclusivity(unchecked) var clock: (any SchedulerClock)?
    /// What the running reducer changed in the state, to put back if it fails.
    @exclusivity(unchecked) var undo = StateUndoLog()
    /// The `try`s of the reducer running (see ``ReducerTries``): empty between runs.
    @exclusivity(unchecked) var tries = ReducerTries()
    /// Loop iterations left in the current reducer run (see ``Interpreter/Options/maxSteps``).
    @exclusivity(unchecked) private var stepsLeft = 0
    /// The limit of loop iterations in one reducer run.
    @exclusivity(unchecked) var maxSteps = 100_000_000
    /// The longest list or string code may build (see ``Evaluator/maxLength``).
    @exclusivity(unchecked) var maxLength = Int.max
    /// The run's memory budget, if it has one.
    @exclusivity(unchecked) var memoryWatch: MemoryWatch?
    /// Loop iterations of every reducer run so far (for ``Interpreter/Options/maxRunSteps``).
    @exclusivity(unchecked) private(set) var stepsTaken = 0
    /// The steps the run had left (``Interpreter/Options/maxRunSteps``) when ``stepsTaken`` was
    /// ``stepsAtAction``.
    ///
    /// The reducers' loop iterations take from them too. Set before each action; `Int.max`
    /// without a limit.
    @exclusivity(unchecked) var runStepsLeft = Int.max
    @exclusivity(unchecked) var stepsAtAction = 0
    /// Set when a reducer's loop used up ``runStepsLeft``: it is rolled back as a failed one is,
    /// without a report, and the run is out of steps.
    @exclusivity(unchecked) var ranOutOfRunSteps = false

    /// Runs a reducer's code over `state`, undone if it fails: the error it failed with, or
    /// `nil`.
    ///
    /// Its variables are in `slots` and its temporaries in `temporaries` (`temporaryCount` of
    /// them); it logs what it changes if `logsChanges` (see ``StateUndoLog``). A reducer that
    /// fails leaves the state as it was, and its temporaries null. The run may take as many
    /// loop turns as ``maxSteps`` and the run's steps left allow.
    @inline(__always)
    func runReducer(
        _ code: Code, _ state: inout Value, _ slots: UnsafeMutablePointer<Value>, action: Value,
        _ temporaries: UnsafeMutablePointer<Value>, temporaryCount: Int, logsChanges: Bool
    ) -> SagaError? {
        let allowed = Swift.min(maxSteps, runStepsLeft &- (stepsTaken &- stepsAtAction))
        stepsLeft = allowed
        logging = logsChanges
        defer { stepsTaken &+= allowed - Swift.max(stepsLeft, 0) + 1 }
        // In place, with an undo log: a copy of the state to fall back on would make the
        // first assignment copy all of it.
        do throws(SagaError) {
            let ev = Evaluator(clock: clock, maxLength: maxLength, memory: memoryWatch)
            var pc = 0
            var steps = CodeSteps(reducerRunIn: self)
            // Code that reads only the action's members reads them from `action`, and
            // never reads the variables.
            _ = try run(code, &state, slots, action: action, temporaries, ev, pc: &pc, steps: &steps)
            undo.commit()
            return nil
        } catch {
            // A failed instruction may leave a temporary it had not passed on yet.
            for t in 0..<temporaryCount { temporaries[t] = .null }
            undo.rollBack(&state)
            return error
        }
    }

    /// The value of an expression's code (``Code/init(expression:slotCount:)``), `it` its
    /// state, over the variables in `slots` (only read), its temporaries in `room`.
    func value(
        of code: Code, it: Value, slots: UnsafeMutablePointer<Value>, room: UnsafeMutablePointer<Value>,
        _ ev: Evaluator
    ) throws(SagaError) -> Value {
        var state = it
        var pc = 0
        var steps = CodeSteps(reducerRunIn: self)
        let exit = try run(code, &state, slots, action: .null, room, ev, pc: &pc, steps: &steps)
        guard case .returns(let place) = exit else { return .null }
        return CodePlaces(
            slots: slots, temporaries: room, constants: code.constantBase, locals: room + code.temporaryCount
        )
        .read(place)
    }

    /// Counts one loop iteration of a reducer; too many in one run is an endless loop.
    func countStep() throws(SagaError) {
        stepsLeft -= 1
        if stepsLeft < 0 { throw loopedTooOften() }
    }

    /// The error of a reducer run that looped more than ``maxSteps`` times: out of line, so
    /// that the code loop, where ``countStep()`` is inlined, does not set up its text.
    @inline(never)
    private func loopedTooOften() -> SagaError {
        if runStepsLeft &- (stepsTaken &- stepsAtAction) < maxSteps { ranOutOfRunSteps = true }
        return SagaError(
            kind: "RangeError",
            message: "the reducer looped \(maxSteps) times (an endless loop?); raise the limit with --max-steps")
    }
}
