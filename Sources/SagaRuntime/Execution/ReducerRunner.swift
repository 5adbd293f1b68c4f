import SagaCore
import SagaLanguage

/// Runs the program's reducers: pure, synchronous code over the state. A reducer that fails
/// leaves the state as it was before it ran; the failure is reported and the dispatch goes on.
///
/// Its mutable fields are unchecked for exclusivity, as ``SagaTask``'s are: only the store's
/// reducer call reaches them, one action at a time (the store queues a dispatch made during
/// another), and the checks were 3% of every-select-put's instructions (callgrind).
final class ReducerRunner {
    private let program: Program
    private let output: RunOutput
    /// Each reducer's pattern, evaluated once (reducer patterns see no variables).
    private let patterns: [ActionPattern?]
    /// Whether each reducer needs an undo log. One whose body is a single `state.key = …`
    /// does not: that assignment either happens whole or fails before changing anything.
    private let needsUndo: [Bool]
    /// Whether the running reducer logs what it changes.
    @exclusivity(unchecked) var logging = true
    /// The clock, for `now()` in a reducer; set by the interpreter. Strong: a clock holds
    /// nothing, so there is no cycle, and a weak load cost two atomic operations per reducer run.
    @exclusivity(unchecked) var clock: (any SchedulerClock)?

    /// The variables array reducers reuse.
    @exclusivity(unchecked) private var scratch: [Value] = []
    /// What `state` reads in a reducer: the state as it stands before each statement.
    let scope = EvaluationScope()
    /// What the running reducer changed in the state, to put back if it fails.
    @exclusivity(unchecked) var undo = StateUndoLog()
    /// Each reducer's body, lowered (see ``ReducerCode``).
    private let codes: [ReducerCode]
    /// Whether reducers run lowered, or by walking their statements (as they do under a
    /// run-step limit, so that such a run is the reference the interpreter fuzzer compares
    /// the lowered code against).
    @exclusivity(unchecked) var runsLowered = true
    /// The temporaries of lowered code: as many as the most any reducer needs, all `.null`
    /// between runs.
    private let temporaries: UnsafeMutablePointer<Value>
    private let temporaryCount: Int
    /// Loop iterations left in the current reducer run (see ``Interpreter/Options/maxSteps``).
    @exclusivity(unchecked) private var stepsLeft = 0
    /// The limit of loop iterations in one reducer run.
    @exclusivity(unchecked) var maxSteps = 100_000_000
    /// The longest list or string a reducer may build (see ``Evaluator/maxLength``).
    @exclusivity(unchecked) var maxLength = Int.max
    /// Loop iterations of every reducer run so far (for ``Interpreter/Options/maxRunSteps``).
    @exclusivity(unchecked) private(set) var stepsTaken = 0
    /// Reducers that run after the program's own (the persistence reducer), as one.
    ///
    /// One closure in a `let`, called where it is: called out of an array, each was retained
    /// and released around its call, an atomic pair per action (callgrind,
    /// sagarun-every-select-put).
    private let extra: ((inout Value, Value) -> Void)?
    /// Whether there is no reducer at all, the program's or another: a program of sagas alone.
    let reducesNothing: Bool

    init(program: Program, output: RunOutput, extra: [(inout Value, Value) -> Void] = []) {
        self.program = program
        self.output = output
        self.extra = Self.joined(extra)
        self.reducesNothing = program.reducers.isEmpty && extra.isEmpty
        self.patterns = program.reducers.map { Self.compile($0.pattern) }
        self.needsUndo = program.reducers.map { !Self.isOneStateAssignment($0.body.statements) }
        let codes = program.reducers.map { ReducerCode(lowering: $0.body.statements, slotCount: max($0.slotCount, 1)) }
        self.codes = codes
        temporaryCount = max(codes.map(\.temporaryCount).max() ?? 0, 1)
        temporaries = .allocate(capacity: temporaryCount)
        temporaries.initialize(repeating: .null, count: temporaryCount)
    }

    deinit {
        temporaries.deinitialize(count: temporaryCount)
        temporaries.deallocate()
    }

    /// Whether every temporary of lowered code is `.null`, as it must be between runs (for tests:
    /// one left holding a value would keep a reference, and be leaked when next written).
    var temporariesAreNull: Bool {
        (0..<temporaryCount).allSatisfy { if case .null = temporaries[$0] { true } else { false } }
    }

    /// Whether `statements` is a single assignment to `state` or through it (`state.key = …`,
    /// `state.users[a.id] = …`): one that fails leaves the state as it was, so there is nothing
    /// to undo. Logging it kept a reference to the member it changes, so that the change copied
    /// the whole member: a reducer adding to a record of users by id took time in n² (40,000
    /// took 31 s through `sagarun`).
    private static func isOneStateAssignment(_ statements: [Stmt]) -> Bool {
        guard statements.count == 1, case .assign(let lv, .expr, _) = statements[0], case .state = lv.root
        else { return false }
        return true
    }

    private static func compile(_ pattern: Pattern) -> ActionPattern? {
        switch pattern {
        case .any: return .any
        case .expr(let e):
            guard let v = try? Evaluator(now: 0).eval(e, []) else { return nil }
            return try? ActionPattern(v)
        }
    }

    /// The program's `state { … }`, or an empty record.
    func initialState() -> Result<Value, SagaError> {
        guard let expr = program.initialState else { return .success(.record(Record())) }
        do {
            return .success(try Evaluator(now: 0).eval(expr, []))
        } catch {
            return .failure(error)
        }
    }

    /// Applies every matching reducer, in declaration order.
    ///
    /// Inline, so that a program of sagas alone, whose store's reducer calls this, makes no
    /// call: about 50 instructions a dispatch (callgrind, take-put-loop).
    @inline(__always)
    func reduce(_ state: inout Value, _ action: Value) {
        if !reducesNothing { reduceEach(&state, action) }
    }

    private func reduceEach(_ state: inout Value, _ action: Value) {
        // By index: a `for reducer in` loop copied each declaration (retaining its parts), a
        // cost every action paid for every reducer (callgrind).
        let type = program.reducers.isEmpty ? nil : ActionPattern.type(of: action)
        for i in program.reducers.indices {
            // Matched where the pattern is: binding it copied it (and destroyed the copy), an
            // outlined call each way per reducer per action (callgrind, every-select-put).
            switch patterns[i]?.matches(actionType: type) {
            case true?: break
            case false?: continue
            case nil:
                output.error(report(i, "its pattern is not a string or a list of patterns"))
                continue
            }
            // One variables array, reused: reducers run one at a time and never capture it.
            // Lowered code that reads only the action runs without it.
            let usesVariables = !runsLowered || !codes[i].readsOnlyTheAction
            var env: [Value] = []
            if usesVariables {
                env = scratch
                scratch = []
                let size = max(program.reducers[i].slotCount, 1)
                if env.count != size { env = [Value](repeating: .null, count: size) }
                env[0] = action
            }
            defer {
                if usesVariables {
                    for i in env.indices { env[i] = .null }
                    scratch = env
                }
            }
            stepsLeft = maxSteps
            logging = needsUndo[i]
            defer { stepsTaken &+= maxSteps - Swift.max(stepsLeft, 0) + 1 }
            // In place, with an undo log: a copy of the state to fall back on would make the
            // first assignment copy all of it.
            do {
                let ev = Evaluator(scope: scope, clock: clock, maxLength: maxLength)
                if runsLowered {
                    try run(codes[i], &state, &env, action: action, temporaries, ev)
                } else {
                    _ = try run(program.reducers[i].body.statements, &state, &env, ev)
                }
                undo.commit()
            } catch {
                // A failed instruction may leave a temporary it had not passed on yet.
                for t in 0..<temporaryCount { temporaries[t] = .null }
                undo.rollBack(&state)
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

    enum Flow {
        case normal, breakLoop, continueLoop, returned
    }

    private func run(
        _ stmts: [Stmt], _ state: inout Value, _ env: inout [Value], _ ev: Evaluator
    ) throws(SagaError) -> Flow {
        for stmt in stmts {
            let flow = try execute(stmt, &state, &env, ev)
            if case .normal = flow { continue }
            return flow
        }
        return .normal
    }

    func execute(
        _ stmt: Stmt, _ state: inout Value, _ env: inout [Value], _ ev: Evaluator
    ) throws(SagaError) -> Flow {
        scope.state = state
        // Whatever way the statement ends, the scope must not keep a copy of the state: the
        // next assignment would then copy all of it.
        defer { scope.state = nil }
        switch stmt {
        case .declare(let v, _, .expr(let e), _):
            env[v.slot] = try ev.eval(e, env)
        case .assign(let lv, .expr(let e), _):
            if let update = PathAssignment.selfUpdate(lv, e) {
                // `state.todos = state.todos + [x]` over a record: updated where the member is,
                // as lowered code does (`updateStateMember`), so that a walked reducer (under a
                // trace or a run-step limit) appends in place too, rather than copy the list
                // each action. Reading the member first cannot fail on a record, so the errors
                // are the same.
                if lv.path.count == 1, case .member(let key) = lv.path[0], case .record = state {
                    let operand = try ev.eval(update.rhs, env)
                    scope.state = nil
                    if logging { undo.willUpdate(state, member: key, update.op, operand) }
                    try PathAssignment.updateMember(&state, key) { (value: inout Value) throws(SagaError) in
                        try ev.update(&value, update.op, operand)
                    }
                    return .normal
                }
                // `state.l.x = state.l.x + [x]`, as lowered code runs it (`updateStatePath`).
                if lv.path.count > 1 {
                    var current = try ev.eval(update.read, env)
                    let operand = try ev.eval(update.rhs, env)
                    let keys = try PathAssignment.keys(lv.path, ev, env)
                    scope.state = nil
                    try self.update(&state, through: keys, update.op, current: &current, operand: operand, ev)
                    return .normal
                }
            }
            let value = try ev.eval(e, env)
            // The common `state.field = …`: no keys array to build.
            if case .state = lv.root, lv.path.count == 1, case .member(let key) = lv.path[0] {
                scope.state = nil
                if logging { undo.willAssign(state, through: key) }
                try PathAssignment.setMember(&state, key, value)
                return .normal
            }
            let keys = try PathAssignment.keys(lv.path, ev, env)
            // Let go of the evaluator's copy of the state before assigning: with it, the
            // state's record is shared and the assignment would copy all of it.
            scope.state = nil
            switch lv.root {
            case .state:
                if logging { undo.willAssign(state, through: keys) }
                try PathAssignment.set(&state, keys[...], value)
            case .variable(let v):
                try PathAssignment.set(&env[v.slot], keys[...], value)
            }
        case .if(let arms, let elseBlock, _):
            for arm in arms where try ev.condition(arm.condition, env) {
                return try run(arm.body.statements, &state, &env, ev)
            }
            if let elseBlock { return try run(elseBlock.statements, &state, &env, ev) }
        case .while(let cond, let body, _):
            while true {
                try step()
                scope.state = state
                guard try ev.condition(cond, env) else { break }
                let flow = try run(body.statements, &state, &env, ev)
                if case .breakLoop = flow { break }
                if case .returned = flow { return flow }
            }
        case .loop(let body, _):
            while true {
                try step()
                let flow = try run(body.statements, &state, &env, ev)
                if case .breakLoop = flow { break }
                if case .returned = flow { return flow }
            }
        case .for(let v, let seq, let body, _):
            for item in try Interpreter.iterationItems(try ev.eval(seq, env)) {
                try step()
                env[v.slot] = item
                let flow = try run(body.statements, &state, &env, ev)
                if case .breakLoop = flow { break }
                if case .returned = flow { return flow }
            }
        case .break: return .breakLoop
        case .continue: return .continueLoop
        case .return: return .returned
        default:
            throw SagaError.typeError("effects are not allowed in a reducer")
        }
        return .normal
    }

    /// Counts one loop iteration; too many in one reducer run is an endless loop.
    func step() throws(SagaError) {
        stepsLeft -= 1
        if stepsLeft < 0 {
            throw SagaError(
                kind: "RangeError",
                message: "the reducer looped \(maxSteps) times (an endless loop?); raise the limit with --max-steps")
        }
    }
}
