import SagaCore
import SagaLanguage

/// Lowers a loop's body, statement by statement, into the tables of a ``LoweredLoop``.
struct LoweredLoopBuilder {
    private let shapes: [CallShape]
    private(set) var arms: [[Stmt]] = []
    private(set) var armParents: [LoweredLoop.ArmParent] = []
    private(set) var steps: [LoweredLoop.Step] = []
    private(set) var tests: [LoweredLoop.Test] = []
    private(set) var conditions: [Expr] = []
    private(set) var integers: [IntegerOperation?] = []
    private(set) var expressions: [Expr] = []
    private(set) var arguments: [[Expr]] = []
    /// Per statement of the body: its first step.
    private(set) var bodySteps: [Int32] = []
    private(set) var patterns: [ActionPattern] = []
    private(set) var actions: [Value] = []

    /// - Parameter shapes: how each of the program's functions is called.
    init(shapes: [CallShape]) {
        self.shapes = shapes
    }

    /// Adds the body's statement at `index`: a store, `break`, `continue`, `return`, or an
    /// `if` whose arms have only those (and `if`s nested in them, up to ``maximumDepth``).
    ///
    /// - Returns: `false` if the statement cannot be lowered.
    mutating func add(_ stmt: Stmt, at index: Int, lastInBody: Bool) -> Bool {
        // Indices are kept in 32 bits: a body or arm longer than that is left to the walk.
        guard let index32 = Int32(exactly: index), let first = Int32(exactly: steps.count) else { return false }
        bodySteps.append(first)
        if Self.isWalkedInPlace(stmt) {
            steps.append(effectStep(stmt, pc: index32))
            return true
        }
        return addStatement(stmt, pc: index32, arm: -1, lastInBlock: lastInBody)
    }

    /// The step of a statement that ``isWalkedInPlace(_:)``: a ``LoweredLoop/Kind/take`` or
    /// ``LoweredLoop/Kind/put`` for the usual forms of those, stored in a variable or not;
    /// a ``LoweredLoop/Kind/statement`` for the others.
    private mutating func effectStep(_ stmt: Stmt, pc: Int32) -> LoweredLoop.Step {
        let walked = LoweredLoop.Step(kind: .statement, pc: pc)
        let slot: Int32
        let effect: Effect
        switch stmt {
        case .effect(let e, _):
            (slot, effect) = (-1, e)
        case .declare(let v, _, .effect(let e), _):
            guard v.slot >= 0, let s = Int32(exactly: v.slot) else { return walked }
            (slot, effect) = (s, e)
        case .assign(let lv, .effect(let e), _):
            guard lv.path.isEmpty, case .variable(let v) = lv.root, v.slot >= 0, let s = Int32(exactly: v.slot) else {
                return walked
            }
            (slot, effect) = (s, e)
        default:
            return walked
        }
        switch effect {
        case .take(.expr(.literal(.string(let type), _)), nil, _):
            guard let operand = Int32(exactly: patterns.count) else { return walked }
            patterns.append(ActionPattern(string: type))
            return LoweredLoop.Step(kind: .take, slot: slot, pc: pc, operand: operand)
        case .put(.literal(.string(let type), _), let payload, _):
            let action: Value
            switch payload {
            case nil:
                action = ConstantActions.typeOnly(type)
            case .record(let fields, _)?:
                guard let made = ConstantActions.make(type, fields) else { return walked }
                action = made
            default:
                return walked
            }
            guard let operand = Int32(exactly: actions.count) else { return walked }
            actions.append(action)
            return LoweredLoop.Step(kind: .put, slot: slot, pc: pc, operand: operand)
        default:
            return walked
        }
    }

    /// Whether a statement of the body (not of an arm) is one that a lowered loop hands to the
    /// walk's `executeStatement` where it stands (``LoweredLoop/Kind/statement``): a `log`, a
    /// `throw`, or a `take`, `put`, `select` or `delay`, on its own or stored.
    ///
    /// Each leaves the task where it was (its block and place), unless it blocks, yields or
    /// throws.
    ///
    /// Not `fork`, `race` or the other effects that start tasks or calls: besides the frames
    /// some of those push, they keep out the loops that desugaring makes at run time (each
    /// `retry`'s has a `try`), which would otherwise be lowered and remembered anew for every
    /// `retry` run (see `Interpreter.loweredLoop(_:_:)`).
    static func isWalkedInPlace(_ stmt: Stmt) -> Bool {
        let effect: Effect
        switch stmt {
        case .log, .throw:
            return true
        case .effect(let e, _), .declare(_, _, .effect(let e), _), .assign(_, .effect(let e), _):
            effect = e
        default:
            return false
        }
        switch effect {
        case .take, .put, .select, .delay: return true
        default: return false
        }
    }

    /// Adds the statement at `pc` of the body (`arm` -1) or of an arm.
    private mutating func addStatement(_ stmt: Stmt, pc: Int32, arm: Int32, lastInBlock: Bool) -> Bool {
        guard case .if(let conditionals, let elseBlock, _) = stmt else {
            return addStore(stmt, pc: pc, arm: arm)
        }
        let branch = steps.count
        steps.append(LoweredLoop.Step(kind: .branch, pc: pc, arm: arm))
        var armEnds: [Int] = []
        // This `if`'s tests go into the table together, after its arms: the `if`s nested in
        // those add theirs first.
        var ownTests: [LoweredLoop.Test] = []
        for conditional in conditionals {
            ownTests.append(
                LoweredLoop.Test(
                    integer: IntegerOperation(conditional.condition), condition: conditions.count, target: steps.count))
            conditions.append(conditional.condition)
            guard let end = addArm(conditional.body.statements, parent: arm, ifIndex: pc, lastInBlock: lastInBlock)
            else { return false }
            armEnds.append(end)
        }
        let firstTest = tests.count
        tests.append(contentsOf: ownTests)
        guard let testsStart = Int32(exactly: firstTest), let testsEnd = Int32(exactly: tests.count) else {
            return false
        }
        steps[branch].testsStart = testsStart
        steps[branch].testsEnd = testsEnd
        if let elseBlock {
            guard let elseStart = Int32(exactly: steps.count) else { return false }
            steps[branch].next = elseStart
            guard let end = addArm(elseBlock.statements, parent: arm, ifIndex: pc, lastInBlock: lastInBlock) else {
                return false
            }
            armEnds.append(end)
        }
        // Past the `if`: where no arm's condition holds (without an `else`), and where each arm ends.
        guard let past = Int32(exactly: steps.count) else { return false }
        if elseBlock == nil { steps[branch].next = past }
        for end in armEnds { steps[end].next = past }
        return true
    }

    /// Adds an arm's statements and its end.
    ///
    /// - Parameters:
    ///   - statements: the arm's statements.
    ///   - parent: the arm the `if` is in (-1: the body).
    ///   - ifIndex: the `if`'s index there.
    ///   - lastInBlock: whether the `if` ends that block (then leaving the arm is no step).
    /// - Returns: the index of the arm's end step; `nil` if a statement cannot be lowered.
    private mutating func addArm(_ statements: [Stmt], parent: Int32, ifIndex: Int32, lastInBlock: Bool) -> Int? {
        guard let arm = Int32(exactly: arms.count), let length = Int32(exactly: statements.count) else { return nil }
        arms.append(statements)
        armParents.append(LoweredLoop.ArmParent(arm: parent, ifIndex: ifIndex))
        for (pc, stmt) in zip(0..<length, statements) {
            guard addStatement(stmt, pc: pc, arm: arm, lastInBlock: pc == length - 1) else { return nil }
        }
        steps.append(LoweredLoop.Step(kind: .armEnd, countsStep: !lastInBlock, pc: length, arm: arm))
        return steps.count - 1
    }

    /// How deeply `if`s may nest in a lowered loop's body: deeper ones leave the loop to the
    /// walk (and no program can make the check recurse without end).
    static let maximumDepth = 8

    /// Whether a body can be lowered, found without making any table: most loops with effects
    /// fail at their first statement, at no cost worth remembering.
    static func canLower(_ body: [Stmt], shapes: [CallShape], depth: Int = 0) -> Bool {
        body.allSatisfy { stmt in
            if depth == 0, isWalkedInPlace(stmt) { return true }
            guard case .if(let conditionals, let elseBlock, _) = stmt else { return isSimple(stmt, shapes) }
            guard depth < maximumDepth else { return false }
            return conditionals.allSatisfy { canLower($0.body.statements, shapes: shapes, depth: depth + 1) }
                && (elseBlock.map { canLower($0.statements, shapes: shapes, depth: depth + 1) } ?? true)
        }
    }

    /// A store (see ``store(_:_:)``), `break`, `continue` or `return`.
    private static func isSimple(_ stmt: Stmt, _ shapes: [CallShape]) -> Bool {
        switch stmt {
        case .break, .continue, .return: return true
        default: return store(stmt, shapes) != nil
        }
    }

    /// The variable and the right-hand side of `let x = …`, `var x = …` or `x = …` of an
    /// expression or of a call by value; `nil` for any other statement.
    private static func store(_ stmt: Stmt, _ shapes: [CallShape]) -> (slot: Int32, rhs: Rhs)? {
        let slot: Int
        let rhs: Rhs
        switch stmt {
        case .declare(let v, _, let r, _):
            (slot, rhs) = (v.slot, r)
        case .assign(let lv, let r, _):
            guard lv.path.isEmpty, case .variable(let v) = lv.root else { return nil }
            (slot, rhs) = (v.slot, r)
        default:
            return nil
        }
        guard slot >= 0, let slot32 = Int32(exactly: slot) else { return nil }
        switch rhs {
        case .expr:
            return (slot32, rhs)
        case .effect(.call(.function(let index, _), _, _)):
            guard index >= 0, index < shapes.count, shapes[index].kind == .value, Int32(exactly: index) != nil else {
                return nil
            }
            return (slot32, rhs)
        case .effect:
            return nil
        }
    }

    /// Steps, integer operations, expressions and arguments keep one index: a branch, an arm's
    /// end, `break` and `continue` have none of the others, which get a filler each before
    /// the next step that has them.
    private mutating func padTables(_ stmt: Stmt) {
        while expressions.count < steps.count {
            integers.append(nil)
            expressions.append(.literal(.null, stmt.location))
            arguments.append([])
        }
    }

    /// Adds `let x = …` or `x = …` of an expression or of a call by value, `break`,
    /// `continue` or `return`.
    ///
    /// - Returns: `false` if the statement is anything else.
    private mutating func addStore(_ stmt: Stmt, pc: Int32, arm: Int32) -> Bool {
        switch stmt {
        case .break:
            steps.append(LoweredLoop.Step(kind: .breakLoop, pc: pc, arm: arm))
            return true
        case .continue:
            steps.append(LoweredLoop.Step(kind: .continueLoop, pc: pc, arm: arm))
            return true
        case .return(let e, let loc):
            padTables(stmt)
            steps.append(LoweredLoop.Step(kind: .returnValue, pc: pc, arm: arm))
            integers.append(nil)
            expressions.append(e ?? .literal(.null, loc))
            arguments.append([])
            return true
        default:
            break
        }
        guard let (slot32, rhs) = Self.store(stmt, shapes) else { return false }
        padTables(stmt)
        switch rhs {
        case .expr(let e):
            steps.append(LoweredLoop.Step(kind: .store, slot: slot32, pc: pc, arm: arm))
            integers.append(IntegerOperation(e))
            expressions.append(e)
            arguments.append([])
        case .effect(.call(.function(let index, _), let args, _)):
            // Checked by `store`: a function called by value, whose index fits.
            guard let function = Int32(exactly: index) else { return false }
            steps.append(
                LoweredLoop.Step(
                    kind: .call, hasArguments: !args.isEmpty, slot: slot32, function: function, pc: pc, arm: arm))
            integers.append(nil)
            expressions.append(shapes[index].value)
            arguments.append(args)
        case .effect:
            return false
        }
        return true
    }
}
