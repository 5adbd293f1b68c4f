import SagaCore
import SagaLanguage

/// Runs the program's reducers: pure, synchronous code over the state.
///
/// A reducer that fails leaves the state as it was before it ran; the failure is reported and
/// the dispatch goes on.
///
/// Its mutable fields are unchecked for exclusivity, as ``SagaTask``'s are: only the store's
/// reducer call reaches them, one action at a time (the store queues a dispatch made during
/// another), and the checks would be paid at every action.
final class ReducerRunner {
    private let program: Program
    private let output: RunOutput
    /// Each reducer's pattern, evaluated once (reducer patterns see no variables).
    private var patterns: [ActionPattern?] = []
    /// Whether each reducer needs an undo log.
    ///
    /// One whose body is a single `state.key = …` does not: that assignment either happens
    /// whole or fails before changing anything.
    private let needsUndo: [Bool]
    /// Whether the running reducer logs what it changes.
    @exclusivity(unchecked) var logging = true
    /// The clock, for `now()` in a reducer; set by the interpreter.
    ///
    /// Strong: a clock holds nothing, so there is no cycle, and a weak load costs two atomic
    /// operations per reducer run.
    @exclusivity(unchecked) var clock: (any SchedulerClock)?

    /// The variables of the running reducer: room for the most any reducer has, all `.null`
    /// between runs.
    private let slots: UnsafeMutablePointer<Value>
    private let slotCapacity: Int
    /// What the running reducer changed in the state, to put back if it fails.
    @exclusivity(unchecked) var undo = StateUndoLog()
    /// The `try`s of the reducer running (see ``ReducerTries``): empty between runs.
    @exclusivity(unchecked) var tries = ReducerTries()
    /// Each reducer's body, compiled (see ``Code``).
    let codes: [Code]
    /// The temporaries of the code: as many as the most any reducer needs, all `.null`
    /// between runs.
    private let temporaries: UnsafeMutablePointer<Value>
    private let temporaryCount: Int
    /// Loop iterations left in the current reducer run (see ``Interpreter/Options/maxSteps``).
    @exclusivity(unchecked) private var stepsLeft = 0
    /// The limit of loop iterations in one reducer run.
    @exclusivity(unchecked) var maxSteps = 100_000_000
    /// The longest list or string a reducer may build (see ``Evaluator/maxLength``).
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
    /// Reducers that run after the program's own (the persistence reducer), as one.
    ///
    /// One closure in a `let`, called where it is: called out of an array, each would be
    /// retained and released around its call, an atomic pair per action.
    private let extra: ((inout Value, Value) -> Void)?
    /// Whether there is no reducer at all, the program's or another: a program of sagas alone.
    let reducesNothing: Bool

    init(program: Program, output: RunOutput, extra: [(inout Value, Value) -> Void] = []) {
        self.program = program
        self.output = output
        self.extra = Self.joined(extra)
        self.reducesNothing = program.reducers.isEmpty && extra.isEmpty
        self.needsUndo = program.reducers.map { !Self.isOneStateAssignment($0.body.statements) }
        let codes = program.reducers.map { Code(reducer: $0.body.statements, slotCount: max($0.slotCount, 1)) }
        self.codes = codes
        temporaryCount = max(codes.map(\.temporaryCount).max() ?? 0, 1)
        temporaries = .allocate(capacity: temporaryCount)
        temporaries.initialize(repeating: .null, count: temporaryCount)
        slotCapacity = max(program.reducers.map(\.slotCount).max() ?? 0, 1)
        slots = .allocate(capacity: slotCapacity)
        slots.initialize(repeating: .null, count: slotCapacity)
        patterns = program.reducers.map { compile($0.pattern) }
    }

    deinit {
        temporaries.deinitialize(count: temporaryCount)
        temporaries.deallocate()
        slots.deinitialize(count: slotCapacity)
        slots.deallocate()
    }

    /// Whether every temporary of the code is `.null`, as it must be between runs (for tests:
    /// one left holding a value would keep a reference, and be leaked when next written).
    var temporariesAreNull: Bool {
        (0..<temporaryCount).allSatisfy { if case .null = temporaries[$0] { true } else { false } }
    }

    /// Whether `statements` is a single assignment to `state` or through it (`state.key = …`,
    /// `state.users[a.id] = …`): one that fails leaves the state as it was, so there is
    /// nothing to undo.
    ///
    /// Logging it would keep a reference to the member it changes, so that the change copies
    /// the whole member: a reducer adding to a record of users by id would take time in n².
    private static func isOneStateAssignment(_ statements: [Stmt]) -> Bool {
        guard statements.count == 1, case .assign(let lv, .expr, _) = statements[0], case .state = lv.root
        else { return false }
        return true
    }

    private func compile(_ pattern: Pattern) -> ActionPattern? {
        switch pattern {
        case .any: return .any
        case .expr(let e):
            guard let v = try? constantValue(e) else { return nil }
            return try? ActionPattern(v)
        }
    }

    /// The program's `state { … }`, or an empty record.
    func initialState() -> Result<Value, SagaError> {
        guard let expr = program.initialState else { return .success(.record(Record())) }
        do {
            return .success(try constantValue(expr))
        } catch {
            return .failure(error)
        }
    }

    /// The value of an expression that reads no variable (a reducer's pattern, the program's
    /// `state`): its code (``Code/init(expression:slotCount:)``), run once, where `now()` is 0.
    private func constantValue(_ expr: Expr) throws(SagaError) -> Value {
        let code = Code(expression: expr, slotCount: 0)
        let count = max(code.roomCount, 1)
        let room = UnsafeMutablePointer<Value>.allocate(capacity: count)
        room.initialize(repeating: .null, count: count)
        defer {
            room.deinitialize(count: count)
            room.deallocate()
        }
        return try value(of: code, it: .null, slots: room, room: room, Evaluator(now: 0))
    }

    /// The value of an expression's code (``Code/init(expression:slotCount:)``), `it` its
    /// state, over the variables in `slots` (only read), its temporaries in `room`.
    func value(
        of code: Code, it: Value, slots: UnsafeMutablePointer<Value>, room: UnsafeMutablePointer<Value>,
        _ ev: Evaluator
    ) throws(SagaError) -> Value {
        var state = it
        var pc = 0
        var steps = CodeSteps(reducer: self)
        let exit = try run(code, &state, slots, action: .null, room, ev, pc: &pc, steps: &steps)
        guard case .returns(let place) = exit else { return .null }
        return CodePlaces(
            slots: slots, temporaries: room, constants: code.constantBase, locals: room + code.temporaryCount
        )
        .read(place)
    }

    /// Applies every matching reducer, in declaration order.
    ///
    /// Inline, so that a program of sagas alone, whose store's reducer calls this, makes no
    /// call.
    @inline(__always)
    func reduce(_ state: inout Value, _ action: Value) {
        if !reducesNothing { reduceEach(&state, action) }
    }

    private func reduceEach(_ state: inout Value, _ action: Value) {
        // By index: a `for reducer in` loop would copy each declaration (retaining its parts),
        // a cost every action would pay for every reducer.
        let type = program.reducers.isEmpty ? nil : ActionPattern.type(of: action)
        for i in program.reducers.indices {
            // Matched where the pattern is: binding it would copy it (and destroy the copy),
            // an outlined call each way per reducer per action.
            switch patterns[i]?.matches(actionType: type) {
            case true?: break
            case false?: continue
            case nil:
                output.error(report(i, "its pattern is not a string or a list of patterns"))
                continue
            }
            // One set of variables, reused: reducers run one at a time and never capture them.
            // Code that reads only the action runs without them.
            let usesVariables = !codes[i].readsOnlyTheAction
            let size = max(program.reducers[i].slotCount, 1)
            if usesVariables { slots[0] = action }
            defer {
                if usesVariables {
                    for s in 0..<size { slots[s] = .null }
                }
            }
            let allowed = Swift.min(maxSteps, runStepsLeft &- (stepsTaken &- stepsAtAction))
            stepsLeft = allowed
            logging = needsUndo[i]
            defer { stepsTaken &+= allowed - Swift.max(stepsLeft, 0) + 1 }
            // In place, with an undo log: a copy of the state to fall back on would make the
            // first assignment copy all of it.
            do {
                let ev = Evaluator(clock: clock, maxLength: maxLength, memory: memoryWatch)
                var pc = 0
                var steps = CodeSteps(reducer: self)
                // Code that reads only the action's members reads them from `action`, and
                // never reads the variables.
                _ = try run(codes[i], &state, slots, action: action, temporaries, ev, pc: &pc, steps: &steps)
                undo.commit()
            } catch {
                // A failed instruction may leave a temporary it had not passed on yet.
                for t in 0..<temporaryCount { temporaries[t] = .null }
                undo.rollBack(&state)
                // The run is out of steps: it stops, with no reducer run after.
                if ranOutOfRunSteps { return }
                output.error(report(i, error.message))
            }
        }
        extra?(&state, action)
    }

    /// `reducers` as one reducer running each in order; `nil` for none.
    private static func joined(_ reducers: [(inout Value, Value) -> Void]) -> ((inout Value, Value) -> Void)? {
        switch reducers.count {
        case 0: return nil
        case 1: return reducers[0]
        default: return { state, action in for reducer in reducers { reducer(&state, action) } }
        }
    }

    private func report(_ index: Int, _ message: String) -> String {
        let loc = program.reducers[index].location
        let file = loc.file >= 0 && Int(loc.file) < program.files.count ? program.files[Int(loc.file)].path : "?"
        return "error: reducer at \(file):\(loc.line):\(loc.column) failed: \(message)"
    }

    /// Counts one loop iteration; too many in one reducer run is an endless loop.
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
