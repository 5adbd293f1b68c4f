import SagaCore
import SagaLanguage

/// Turns a reducer's statements into ``ReducerCode``: the statements and expressions it has
/// instructions for become those, anything else one instruction that runs it as it is.
struct ReducerLowering {
    typealias Place = ReducerCode.Place
    typealias Instruction = ReducerCode.Instruction

    private(set) var instructions: [Instruction] = []
    private(set) var keys: [String] = []
    private(set) var constants: [Value] = []
    private(set) var expressions: [Expr] = []
    private(set) var statements: [Stmt] = []
    private(set) var paths: [[ReducerCode.PathStep]] = []
    private(set) var records: [[(key: Int32, value: Place)]] = []
    /// How many temporaries the code uses at most.
    private(set) var temporaryCount = 0

    /// The number of the reducer's own variables: a slot outside them is left to the walker.
    private let slotCount: Int
    /// Temporaries in use while the current statement is lowered.
    private var temporariesInUse = 0
    /// The temporaries below this are the items and indexes of the `for` loops being lowered:
    /// a statement's own temporaries start above them.
    private var temporaryFloor = 0
    /// Whether the code has a `for` (whose temporaries a `return` may leave set).
    private var hasFor = false
    /// Jumps to the end of the code (`return`, and `break` or `continue` outside a loop), set
    /// once the end is known.
    private var jumpsToEnd: [Int] = []

    /// A loop being lowered: where `continue` goes, and the `break`s to point at its end.
    private struct Loop {
        var continueAt: Int32
        var breaks: [Int] = []
    }

    private var loops: [Loop] = []

    init(_ body: [Stmt], slotCount: Int) {
        self.slotCount = slotCount
        lower(body)
        let end = Int32(instructions.count)
        if hasFor { instructions.append(.clearTemporaries) }
        for i in jumpsToEnd { instructions[i] = .jump(to: end) }
        jumpsToEnd = []
    }

    // MARK: Statements

    private mutating func lower(_ body: [Stmt]) {
        for stmt in body {
            temporariesInUse = temporaryFloor
            lower(stmt)
        }
    }

    /// Lowers a path's indexes, in order, and adds the path to ``paths``.
    private mutating func pathIndex(_ path: [LValue.Step]) -> Int32 {
        var steps: [ReducerCode.PathStep] = []
        for step in path {
            switch step {
            case .member(let key): steps.append(.member(key: keyIndex(key)))
            case .index(let index): steps.append(.index(place(of: index)))
            }
        }
        paths.append(steps)
        return Int32(paths.count - 1)
    }

    private mutating func lower(_ stmt: Stmt) {
        switch stmt {
        case .declare(let v, _, .expr(let e), _) where isOwnSlot(v.slot):
            lower(e, into: .slot(Int32(v.slot)))
        case .assign(let lv, .expr(let e), _) where lv.path.isEmpty:
            guard case .variable(let v) = lv.root, isOwnSlot(v.slot) else { return fallBack(stmt) }
            lower(e, into: .slot(Int32(v.slot)))
        case .assign(let lv, .expr(let e), _):
            let update = PathAssignment.selfUpdate(lv, e)
            if case .state = lv.root, lv.path.count == 1, case .member(let key) = lv.path[0] {
                if let update {
                    // `state.count = state.count + a.by`: the member read and written once, in
                    // place, rather than copied out, replaced and looked up again (callgrind,
                    // every-select-put); and `state.items = state.items + [x]` appends.
                    let k = keyIndex(key)
                    let lhs = newTemporary()
                    instructions.append(.stateMemberUnlessRecord(key: k, into: lhs))
                    let r = place(of: update.rhs)
                    instructions.append(.updateStateMember(key: k, update.op, lhs: lhs, rhs: r))
                    return
                }
                let value = place(of: e)
                instructions.append(.setStateMember(key: keyIndex(key), value))
                return
            }
            if case .variable(let v) = lv.root, !isOwnSlot(v.slot) { return fallBack(stmt) }
            if let update {
                // `state.l.x = state.l.x + [a.todo]`: the read and `rhs` as the walker evaluates
                // them, then the path's indexes (the read's again, so they cannot fail), then
                // the update, which extends a list or string where it lies; building a new one
                // took time in n² (20,000 appends: 36.5 s through `sagarun`).
                let lhs = newTemporary()
                lower(update.read, into: lhs)
                let r = place(of: update.rhs)
                instructions.append(.updateStatePath(pathIndex(lv.path), update.op, lhs: lhs, rhs: r))
                return
            }
            // The value first, then the path's indexes, in order: as the walker evaluates them.
            let value = place(of: e)
            let path = pathIndex(lv.path)
            switch lv.root {
            case .state: instructions.append(.setStatePath(path, value))
            case .variable(let v): instructions.append(.setSlotPath(slot: Int32(v.slot), path, value))
            }
        case .if(let arms, let elseBlock, _):
            var exits: [Int] = []
            for arm in arms {
                temporariesInUse = temporaryFloor
                let condition = place(of: arm.condition)
                let test = instructions.count
                instructions.append(.jumpUnless(condition, to: -1))
                lower(arm.body.statements)
                exits.append(instructions.count)
                instructions.append(.jump(to: -1))
                instructions[test] = .jumpUnless(condition, to: Int32(instructions.count))
            }
            if let elseBlock { lower(elseBlock.statements) }
            let end = Int32(instructions.count)
            for i in exits { instructions[i] = .jump(to: end) }
        case .while(let condition, let body, _):
            // As the walker: a step, then the condition, at the top of each turn.
            let head = Int32(instructions.count)
            instructions.append(.step)
            let c = place(of: condition)
            let test = instructions.count
            instructions.append(.jumpUnless(c, to: -1))
            let end = lowerLoopBody(body.statements, continueAt: head)
            instructions[test] = .jumpUnless(c, to: end)
        case .loop(let body, _):
            let head = Int32(instructions.count)
            instructions.append(.step)
            _ = lowerLoopBody(body.statements, continueAt: head)
        case .for(let v, let sequence, let body, _) where isOwnSlot(v.slot):
            let sequencePlace = place(of: sequence)
            // Its two temporaries stay reserved while its body is lowered.
            let items = Int32(temporaryFloor)
            temporaryFloor += 2
            temporaryCount = max(temporaryCount, temporaryFloor)
            hasFor = true
            instructions.append(.forStart(sequencePlace, items: items))
            let head = Int32(instructions.count)
            instructions.append(.forNext(items: items, slot: Int32(v.slot), exit: -1))
            let end = lowerLoopBody(body.statements, continueAt: head)
            instructions[Int(head)] = .forNext(items: items, slot: Int32(v.slot), exit: end)
            instructions.append(.forEnd(items: items))
            temporaryFloor -= 2
        case .break:
            guard !loops.isEmpty else { return jumpToEnd() }
            loops[loops.count - 1].breaks.append(instructions.count)
            instructions.append(.jump(to: -1))
        case .continue:
            guard let loop = loops.last else { return jumpToEnd() }
            instructions.append(.jump(to: loop.continueAt))
        case .return:
            // A reducer's `return` ends it (its value is not used).
            jumpToEnd()
        default:
            fallBack(stmt)
        }
    }

    /// A loop's body and the jump back to `continueAt`, its head.
    ///
    /// - Returns: where the loop ends, where its `break`s go. (`break` or `continue` outside a
    ///   loop ends the reducer, as the walker's statement list does.)
    private mutating func lowerLoopBody(_ body: [Stmt], continueAt: Int32) -> Int32 {
        loops.append(Loop(continueAt: continueAt))
        lower(body)
        instructions.append(.jump(to: continueAt))
        let loop = loops.removeLast()
        let exit = Int32(instructions.count)
        for i in loop.breaks { instructions[i] = .jump(to: exit) }
        return exit
    }

    private mutating func jumpToEnd() {
        jumpsToEnd.append(instructions.count)
        instructions.append(.jump(to: -1))
    }

    private mutating func fallBack(_ stmt: Stmt) {
        instructions.append(.statement(Int32(statements.count)))
        statements.append(stmt)
    }

    private func isOwnSlot(_ slot: Int) -> Bool {
        slot >= 0 && slot < slotCount
    }

    // MARK: Expressions

    /// Where the value of `e` will be: a variable or a constant as they are, anything else
    /// computed into a new temporary.
    private mutating func place(of e: Expr) -> Place {
        switch e {
        case .literal(let v, _):
            constants.append(v)
            return .constant(Int32(constants.count - 1))
        case .variable(let v) where isOwnSlot(v.slot):
            return .slot(Int32(v.slot))
        default:
            let t = newTemporary()
            lower(e, into: t)
            return t
        }
    }

    private mutating func newTemporary() -> Place {
        let t = Place.temporary(Int32(temporariesInUse))
        temporariesInUse += 1
        temporaryCount = max(temporaryCount, temporariesInUse)
        return t
    }

    /// Instructions that leave the value of `e` in `target`.
    private mutating func lower(_ e: Expr, into target: Place) {
        switch e {
        case .literal:
            instructions.append(.move(place(of: e), into: target))
        case .variable(let v) where isOwnSlot(v.slot):
            instructions.append(.move(.slot(Int32(v.slot)), into: target))
        case .member(.state, let key, _):
            instructions.append(.stateMember(key: keyIndex(key), into: target))
        case .member(let base, let key, _):
            let b = place(of: base)
            instructions.append(.member(b, key: keyIndex(key), into: target))
        case .index(let base, let index, _):
            let b = place(of: base)
            let i = place(of: index)
            instructions.append(.index(b, i, into: target))
        case .binary(let op, let lhs, let rhs, _) where op == .and || op == .or:
            let l = place(of: lhs)
            let test = instructions.count
            instructions.append(.logical(op, l, into: target, decided: -1))
            let r = place(of: rhs)
            instructions.append(.logicalRight(op, r, into: target))
            instructions[test] = .logical(op, l, into: target, decided: Int32(instructions.count))
        case .binary(.coalesce, let lhs, let rhs, _):
            let l = place(of: lhs)
            let test = instructions.count
            instructions.append(.unlessNull(l, into: target, to: -1))
            lower(rhs, into: target)
            instructions[test] = .unlessNull(l, into: target, to: Int32(instructions.count))
        case .binary(let op, let lhs, let rhs, _):
            let l = place(of: lhs)
            let r = place(of: rhs)
            instructions.append(.binary(op, l, r, into: target))
        case .unary(let op, let operand, _):
            let v = place(of: operand)
            instructions.append(.unary(op, v, into: target))
        case .record(let fields, _):
            var entries: [(key: Int32, value: Place)] = []
            for field in fields {
                let value = place(of: field.value)
                instructions.append(.checkDepth(value))
                entries.append((keyIndex(field.key), value))
            }
            instructions.append(.record(Int32(records.count), into: target))
            records.append(entries)
        case .list(let items, _):
            // Built in a temporary of its own, then moved: built in the target, `x = [x]`
            // would read the list it is building.
            let list = newTemporary()
            instructions.append(.newList(capacity: Int32(items.count), into: list))
            for item in items { instructions.append(.append(place(of: item), toList: list)) }
            instructions.append(.move(list, into: target))
        default:
            instructions.append(.evaluate(Int32(expressions.count), into: target))
            expressions.append(e)
        }
    }

    private mutating func keyIndex(_ key: String) -> Int32 {
        if let i = keys.firstIndex(where: { Record.sameKey($0, key) }) { return Int32(i) }
        keys.append(key)
        return Int32(keys.count - 1)
    }
}
