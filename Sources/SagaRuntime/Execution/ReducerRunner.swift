import SagaCore
import SagaLanguage

/// Runs the program's reducers: pure, synchronous code over the state.
///
/// Each reducer's body is compiled once, and runs on the ``VM`` over variables and
/// temporaries that all reducers share (they run one at a time: the store queues a dispatch
/// made during another). A reducer that fails leaves the state as it was before it ran; the
/// failure is reported and the dispatch goes on.
final class ReducerRunner {
    private let program: Program
    private let output: RunOutput
    /// What each reducer's run needs, in declaration order, read where it lies at each action
    /// (see ``Entry``).
    private let entries: UnsafeMutablePointer<Entry>
    private let entryCount: Int
    /// The variables of the running reducer: room for the most any reducer has, all `.null`
    /// between runs.
    private let slots: UnsafeMutablePointer<Value>
    private let slotCapacity: Int
    /// Each reducer's body, compiled (see ``Code``).
    ///
    /// Held here so that ``Entry/code`` can point at it without a retain: the loop reads the
    /// code through its entry, not here.
    let codes: [Code]
    /// The temporaries of the code: as many as the most any reducer needs, all `.null`
    /// between runs.
    private let temporaries: UnsafeMutablePointer<Value>
    private let temporaryCount: Int
    /// Reducers that run after the program's own (the persistence reducer), as one.
    ///
    /// One closure in a `let`, called where it is: called out of an array, each would be
    /// retained and released around its call, an atomic pair per action.
    private let extra: ((inout Value, Value) -> Void)?
    /// Whether there is no reducer at all, the program's or another: a program of sagas alone.
    let reducesNothing: Bool
    /// The machine the reducers' code runs on, and every task's code too (see
    /// ``Interpreter/vm``).
    let vm = VM()

    init(program: Program, output: RunOutput, extra: [(inout Value, Value) -> Void] = []) {
        self.program = program
        self.output = output
        self.extra = Self.joined(extra)
        self.reducesNothing = program.reducers.isEmpty && extra.isEmpty
        let codes = program.reducers.map { Code(reducer: $0.body.statements, slotCount: max($0.slotCount, 1)) }
        self.codes = codes
        temporaryCount = max(codes.map(\.temporaryCount).max() ?? 0, 1)
        temporaries = .allocate(capacity: temporaryCount)
        temporaries.initialize(repeating: .null, count: temporaryCount)
        slotCapacity = max(program.reducers.map(\.slotCount).max() ?? 0, 1)
        slots = .allocate(capacity: slotCapacity)
        slots.initialize(repeating: .null, count: slotCapacity)
        entryCount = codes.count
        entries = .allocate(capacity: codes.count)
        for (i, reducer) in program.reducers.enumerated() {
            (entries + i).initialize(
                to: Entry(
                    pattern: Self.compile(reducer.pattern, vm), code: .passUnretained(codes[i]),
                    slotCount: max(reducer.slotCount, 1),
                    needsUndo: !Self.isOneStateAssignment(reducer.body.statements)))
        }
    }

    deinit {
        entries.deinitialize(count: entryCount)
        entries.deallocate()
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

    private static func compile(_ pattern: Pattern, _ vm: VM) -> ActionPattern? {
        switch pattern {
        case .any: return .any
        case .expr(let e):
            guard let v = try? constantValue(e, vm) else { return nil }
            return try? ActionPattern(v)
        }
    }

    /// The program's `state { … }`, or an empty record.
    func initialState() -> Result<Value, SagaError> {
        guard let expr = program.initialState else { return .success(.record(Record())) }
        do {
            return .success(try Self.constantValue(expr, vm))
        } catch {
            return .failure(error)
        }
    }

    /// The value of an expression that reads no variable (a reducer's pattern, the program's
    /// `state`): its code (``Code/init(expression:slotCount:)``), run once, where `now()` is 0.
    private static func constantValue(_ expr: Expr, _ vm: VM) throws(SagaError) -> Value {
        let code = Code(expression: expr, slotCount: 0)
        let count = max(code.roomCount, 1)
        let room = UnsafeMutablePointer<Value>.allocate(capacity: count)
        room.initialize(repeating: .null, count: count)
        defer {
            room.deinitialize(count: count)
            room.deallocate()
        }
        return try vm.value(of: code, it: .null, slots: room, room: room, Evaluator(now: 0))
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
        let type = entryCount == 0 ? nil : ActionPattern.type(of: action)
        for i in 0..<entryCount {
            // Read where they lie: copying an entry would retain and release its parts, a cost
            // every action would pay for every reducer.
            switch entries[i].pattern?.matches(actionType: type) {
            case true?: break
            case false?: continue
            case nil:
                output.error(report(i, "its pattern is not a string or a list of patterns"))
                continue
            }
            // One set of variables, reused: reducers run one at a time and never capture them.
            // Code that reads only the action runs without them.
            let usesVariables = !entries[i].code._withUnsafeGuaranteedRef { $0.readsOnlyTheAction }
            let size = entries[i].slotCount
            if usesVariables { slots[0] = action }
            defer {
                if usesVariables {
                    for s in 0..<size { slots[s] = .null }
                }
            }
            // The code is read without a retain: the runner holds it.
            let failure = entries[i].code._withUnsafeGuaranteedRef { code in
                vm.runReducer(
                    code, &state, slots, action: action, temporaries, temporaryCount: temporaryCount,
                    logsChanges: entries[i].needsUndo)
            }
            if let failure {
                // The run is out of steps: it stops, with no reducer run after.
                if vm.ranOutOfRunSteps { return }
                output.error(report(i, failure.message))
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

    /// The report of reducer number `index`'s failure.
    ///
    /// Out of line: it runs only on a failure, and inlined it would weigh on the loop of
    /// ``reduceEach(_:_:)``.
    @inline(never)
    private func report(_ index: Int, _ message: String) -> String {
        "error: reducer at \(program.place(of: program.reducers[index].location)) failed: \(message)"
    }

    /// What a reducer's run needs at each action.
    private struct Entry {
        /// Its pattern, evaluated once (reducer patterns see no variables); `nil` if it is not
        /// a pattern.
        let pattern: ActionPattern?
        /// Its body, compiled: held by ``ReducerRunner/codes``.
        let code: Unmanaged<Code>
        /// How many variables it has (the action's among them).
        let slotCount: Int
        /// Whether it keeps an undo log: one whose body is a single `state.key = …` does not,
        /// as that assignment either happens whole or fails before changing anything.
        let needsUndo: Bool
    }
}
