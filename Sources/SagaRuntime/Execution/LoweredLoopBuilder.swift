import SagaCore
import SagaLanguage

/// Lowers a loop's body, statement by statement, into the tables of a ``LoweredLoop``.
struct LoweredLoopBuilder {
    private let shapes: [CallShape]
    private(set) var arms: [[Stmt]] = []
    private(set) var steps: [LoweredLoop.Step] = []
    private(set) var tests: [LoweredLoop.Test] = []
    private(set) var conditions: [Expr] = []
    private(set) var expressions: [Expr] = []
    private(set) var arguments: [[Expr]] = []

    /// - Parameter shapes: how each of the program's functions is called.
    init(shapes: [CallShape]) {
        self.shapes = shapes
    }

    /// Adds the body's statement at `index`: a store, or an `if` whose arms only store.
    ///
    /// - Returns: `false` if the statement cannot be lowered.
    mutating func add(_ stmt: Stmt, at index: Int, lastInBody: Bool) -> Bool {
        guard case .if(let conditionals, let elseBlock, _) = stmt else {
            return addStore(stmt, pc: index, arm: -1, ifIndex: -1)
        }
        let branch = steps.count
        steps.append(LoweredLoop.Step(kind: .branch, pc: index))
        var armEnds: [Int] = []
        let firstTest = tests.count
        for conditional in conditionals {
            tests.append(
                LoweredLoop.Test(
                    integer: IntegerOperation(conditional.condition), condition: conditions.count, target: steps.count))
            conditions.append(conditional.condition)
            guard let end = addArm(conditional.body.statements, ifIndex: index, lastInBody: lastInBody) else {
                return false
            }
            armEnds.append(end)
        }
        steps[branch].tests = firstTest..<tests.count
        if let elseBlock {
            steps[branch].next = steps.count
            guard let end = addArm(elseBlock.statements, ifIndex: index, lastInBody: lastInBody) else { return false }
            armEnds.append(end)
        }
        // Past the `if`: where no arm's condition holds (without an `else`), and where each arm ends.
        let past = steps.count
        if elseBlock == nil { steps[branch].next = past }
        for end in armEnds { steps[end].next = past }
        return true
    }

    /// Adds an arm's statements and its end.
    ///
    /// - Returns: the index of the arm's end step; `nil` if a statement cannot be lowered.
    private mutating func addArm(_ statements: [Stmt], ifIndex: Int, lastInBody: Bool) -> Int? {
        let arm = arms.count
        arms.append(statements)
        for (pc, stmt) in statements.enumerated() {
            guard addStore(stmt, pc: pc, arm: arm, ifIndex: ifIndex) else { return nil }
        }
        steps.append(
            LoweredLoop.Step(kind: .armEnd, pc: statements.count, arm: arm, ifIndex: ifIndex, countsStep: !lastInBody))
        return steps.count - 1
    }

    /// Adds `let x = …` or `x = …` of an expression or of a call by value.
    ///
    /// - Returns: `false` if the statement is anything else.
    private mutating func addStore(_ stmt: Stmt, pc: Int, arm: Int, ifIndex: Int) -> Bool {
        let slot: Int
        let rhs: Rhs
        switch stmt {
        case .declare(let v, _, let r, _):
            (slot, rhs) = (v.slot, r)
        case .assign(let lv, let r, _):
            guard lv.path.isEmpty, case .variable(let v) = lv.root else { return false }
            (slot, rhs) = (v.slot, r)
        default:
            return false
        }
        guard slot >= 0 else { return false }
        // Steps, expressions and arguments keep one index: a branch or an arm's end has
        // neither expression nor arguments.
        while expressions.count < steps.count {
            expressions.append(.literal(.null, stmt.location))
            arguments.append([])
        }
        switch rhs {
        case .expr(let e):
            steps.append(
                LoweredLoop.Step(
                    kind: .store, slot: slot, integer: IntegerOperation(e), pc: pc, arm: arm, ifIndex: ifIndex))
            expressions.append(e)
            arguments.append([])
        case .effect(.call(.function(let index, _), let args, _)):
            guard index >= 0, index < shapes.count, shapes[index].kind == .value else { return false }
            steps.append(
                LoweredLoop.Step(
                    kind: .call, slot: slot, function: index, hasArguments: !args.isEmpty, pc: pc, arm: arm,
                    ifIndex: ifIndex))
            expressions.append(shapes[index].value)
            arguments.append(args)
        case .effect:
            return false
        }
        return true
    }
}
