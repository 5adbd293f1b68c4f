import SagaCore
import SagaLanguage

/// Statements, for a reducer and for a saga alike.
///
/// A saga's code counts steps (see ``forSaga``): a ``Code/Instruction/step`` stands before each
/// statement, at each turn of a loop, and where it leaves an `if`'s arm, a nested loop or a
/// `try`'s block for the statement after it; `--max-steps`, `--max-run-steps` and the yield
/// budget fall there. A reducer's counts only the turns of its loops.
extension Compiler {
    /// A block: each statement, in a saga its first instruction taking its step first.
    mutating func compile(_ body: [Stmt]) {
        for (i, stmt) in body.enumerated() {
            temporariesInUse = temporaryFloor
            location = stmt.location
            if forSaga { pendingStep = stmt.location }
            compile(stmt, next: i + 1 < body.count ? body[i + 1] : nil)
        }
    }

    /// One statement; `next` is the statement after it in its block.
    ///
    /// In a saga, every effect (and `compensate`) is a statement the interpreter runs (see
    /// ``site(_:)``); in a reducer, an effect is an error.
    mutating func compile(_ stmt: Stmt, next: Stmt?) {
        switch stmt {
        case .declare(let v, _, .expr(let e), _):
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            compile(e, into: .slot(Int32(v.slot)))
        case .assign(let lv, .expr(let e), _) where forSaga && lv.isState:
            // The value and the path's indexes, in order, as an assignment computes them; then
            // what the checker refuses.
            _ = place(of: e)
            _ = pathIndex(lv.path)
            fail("'state' can only be assigned in a reducer")
        case .assign(let lv, .expr(let e), _):
            compileAssignment(lv, e)
        case .if(let arms, let elseBlock, _):
            var exits: [Int] = []
            for (i, arm) in arms.enumerated() {
                temporariesInUse = temporaryFloor
                location = stmt.location
                let test = emitTest(arm.condition)
                compile(arm.body.statements)
                stepAfterBlock(next)
                // The last arm, with no `else`, ends where the `if` does.
                if i < arms.count - 1 || elseBlock != nil { exits.append(emitJump()) }
                pointTest(test, to: here)
            }
            if let elseBlock {
                compile(elseBlock.statements)
                stepAfterBlock(next)
            }
            for i in exits { instructions[i] = .jump(to: here) }
        case .while(let condition, let body, _):
            let head = turn(body)
            temporariesInUse = temporaryFloor
            if forSaga { location = condition.location }
            let test = emitTest(condition)
            let end = compileLoopBody(body.statements, continueAt: head, backEdge: backEdge(head: head, test: test))
            pointTest(test, to: end)
            stepAfterBlock(next)
        case .loop(let body, _):
            let head = turn(body)
            _ = compileLoopBody(body.statements, continueAt: head)
            stepAfterBlock(next)
        case .for(let v, let sequence, let body, _):
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            location = stmt.location
            let sequencePlace = place(of: sequence)
            // Its two temporaries stay reserved while its body is compiled.
            let items = Int32(temporaryFloor)
            reserveTemporaries(2)
            hasFor = true
            emit(.forStart(sequencePlace, items: items))
            // A saga's turn is a step of its own; a reducer's `forNext` counts it.
            let head = forSaga ? turn(body) : here
            let forNext = instructions.count
            emit(.forNext(items: items, slot: Int32(v.slot), exit: -1))
            let end = compileLoopBody(body.statements, continueAt: head)
            instructions[forNext] = .forNext(items: items, slot: Int32(v.slot), exit: end)
            emit(.forEnd(items: items))
            temporaryFloor -= 2
            stepAfterBlock(next)
        case .break:
            // In a reducer, `break` or `continue` outside a loop ends the body, as `return`
            // does; in a saga (where the checker refuses it) it fails where it stands.
            guard let loop = loops.last else { return forSaga ? failOutsideALoop() : compileReturn() }
            leaveTries(downTo: loop.tries)
            loops[loops.count - 1].breaks.append(emitJump())
        case .continue:
            guard let loop = loops.last else { return forSaga ? failOutsideALoop() : compileReturn() }
            leaveTries(downTo: loop.tries)
            emit(.jump(to: loop.continueAt))
        case .return(let e, let at):
            // A reducer's `return` ends it (its value is not used).
            guard forSaga else { return compileReturn() }
            emit(.returnValue(place(of: e ?? .literal(.null, at))))
        case .try(let body, let catchClause, let finally, _):
            compileTry(body.statements, catchClause, finally?.statements, next: next)
        case .transaction(let body, _) where forSaga:
            compileTransaction(body.statements, next: next)
        case .declare(let v, _, .effect(.select(let e, _)), _) where forSaga:
            compileSelect(e, stmt, into: LValue(root: .variable(v), path: []))
        case .assign(let lv, .effect(.select(let e, _)), _) where forSaga:
            compileSelect(e, stmt, into: lv)
        case .effect(.select(let e, _), _) where forSaga:
            compileSelect(e, stmt, into: nil)
        case .assign(let lv, .effect, _) where forSaga && !lv.isVariable:
            // `r.x[i] = EFFECT`: the effect's value waits in a temporary, then goes through the
            // path, whose indexes are computed once the effect has given it.
            let result = newTemporary()
            guard case .temporary(let t) = result else { return }
            site(stmt, resultInto: t)
            compileStore(result, to: lv)
        case .log(let e, _) where forSaga:
            emit(.log(place(of: e)))
        case .throw(let e, _) where forSaga:
            emit(.throwValue(place(of: e)))
        case .declare, .assign, .effect, .log, .throw, .transaction, .compensate:
            guard forSaga else { return fail("effects are not allowed in a reducer") }
            if let call = valueCall(stmt) { return compileCall(call, stmt) }
            site(stmt)
        }
    }

    /// `break` or `continue` outside a loop, in a saga: what the checker refuses.
    private mutating func failOutsideALoop() {
        fail("'break' and 'continue' are only allowed inside a loop")
    }

    /// Compiles a path's indexes, in order, and adds the path to ``paths``.
    mutating func pathIndex(_ path: [LValue.Step]) -> Int32 {
        var steps: [Code.PathStep] = []
        for step in path {
            switch step {
            case .member(let key): steps.append(.member(key: keyIndex(key)))
            case .index(let index): steps.append(.index(place(of: index)))
            }
        }
        paths.append(steps)
        return Int32(paths.count - 1)
    }

    /// Emits the test of a condition; its index.
    ///
    /// The test jumps past what it guards unless the condition holds; ``pointTest(_:to:)``
    /// points it. A comparison is one instruction.
    mutating func emitTest(_ condition: Expr) -> Int {
        if case .binary(let op, let lhs, let rhs, _) = condition, op == .equal || op == .notEqual,
            let operand = Self.operandComparedWithNull(lhs, rhs)
        {
            emit(.jumpUnlessNull(place(of: operand), isNull: op == .equal, to: -1))
        } else if case .binary(let op, let lhs, let rhs, _) = condition, Self.isComparison(op) {
            let l = place(of: lhs)
            let r = place(of: rhs)
            emit(.jumpUnlessCompare(op, l, r, to: -1))
        } else {
            emit(.jumpUnless(place(of: condition), to: -1))
        }
        return instructions.count - 1
    }

    /// The end of a turn of a `while` loop whose turn starts with the step at `head` and whose
    /// test is at `test`: where the test follows the step at once and is a comparison, the
    /// ``Code/Instruction/stepAndLoopIfCompare(_:_:_:to:)`` that makes both and goes back
    /// into the body; `nil` otherwise (a jump to the head).
    func backEdge(head: Int32, test: Int) -> Code.Instruction? {
        guard test == Int(head) + 1, case .step = instructions[Int(head)],
            case .jumpUnlessCompare(let op, let l, let r, _) = instructions[test]
        else { return nil }
        return .stepAndLoopIfCompare(op, l, r, to: Int32(test + 1))
    }

    /// Emits the end of a loop's turn: `backEdge` (see ``backEdge(head:test:)``), in the
    /// line of the step it takes, or a jump to `head`.
    mutating func emitBackEdge(_ backEdge: Code.Instruction?, to head: Int32) {
        guard let backEdge else { return emit(.jump(to: head)) }
        emit(backEdge)
        lines[lines.count - 1] = lines[Int(head)]
    }

    /// Points the test at `index` (see ``emitTest(_:)``) at `target`.
    mutating func pointTest(_ index: Int, to target: Int32) {
        switch instructions[index] {
        case .jumpUnless(let place, _): instructions[index] = .jumpUnless(place, to: target)
        case .jumpUnlessCompare(let op, let l, let r, _): instructions[index] = .jumpUnlessCompare(op, l, r, to: target)
        case .jumpUnlessNull(let place, let isNull, _):
            instructions[index] = .jumpUnlessNull(place, isNull: isNull, to: target)
        default: break
        }
    }

    /// The side of `lhs == rhs` (or `!=`) that is compared with a `null` literal on the other
    /// side, if one is.
    private static func operandComparedWithNull(_ lhs: Expr, _ rhs: Expr) -> Expr? {
        if case .literal(.null, _) = rhs { return lhs }
        if case .literal(.null, _) = lhs { return rhs }
        return nil
    }

    private static func isComparison(_ op: BinaryOperator) -> Bool {
        switch op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        default: return false
        }
    }

    /// An assignment: to a variable, or through a path (`state.key = …`, `state.a[i].b = …`,
    /// `x.key = …`).
    private mutating func compileAssignment(_ lv: LValue, _ e: Expr) {
        if lv.path.isEmpty {
            guard case .variable(let v) = lv.root else {
                // `state = …`: the whole state replaced, logged for undo.
                let value = place(of: e)
                emit(.setStatePath(pathIndex([]), value))
                return
            }
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            // `x = x + …`: the operand, then the variable extended in place.
            if case .binary(.add, .variable(let read), let rhs, _) = e, read.slot == v.slot {
                emit(.addToSlot(slot: Int32(v.slot), place(of: rhs)))
                return
            }
            compile(e, into: .slot(Int32(v.slot)))
            return
        }
        let update = PathAssignment.selfUpdate(lv, e)
        if case .state = lv.root, lv.path.count == 1, case .member(let key) = lv.path[0] {
            if let update {
                // `state.count = state.count + a.by`: the member read and written once, in
                // place, rather than copied out, replaced and looked up again; and
                // `state.items = state.items + [x]` appends.
                let k = keyIndex(key)
                let lhs = newTemporary()
                emit(.stateMemberUnlessRecord(key: k, into: lhs))
                let r = place(of: update.rhs)
                emit(.updateStateMember(key: k, update.op, lhs: lhs, rhs: r))
                return
            }
            let value = place(of: e)
            emit(.setStateMember(key: keyIndex(key), value))
            return
        }
        if case .variable(let v) = lv.root, !isOwnSlot(v.slot) { return unknownVariable(v.name) }
        if let update {
            // `state.l.x = state.l.x + [a.todo]` (or `r.l = r.l + …`): the read, `rhs`, then the path's indexes (the
            // read's again, so they cannot fail), then the update, which extends a list or
            // string where it lies.
            let lhs = newTemporary()
            compile(update.read, into: lhs)
            let r = place(of: update.rhs)
            let path = pathIndex(lv.path)
            switch lv.root {
            case .state: emit(.updateStatePath(path, update.op, lhs: lhs, rhs: r))
            case .variable(let v): emit(.updateSlotPath(slot: Int32(v.slot), path, update.op, lhs: lhs, rhs: r))
            }
            return
        }
        // The value first, then the path's indexes, in order.
        let value = place(of: e)
        let path = pathIndex(lv.path)
        switch lv.root {
        case .state: emit(.setStatePath(path, value))
        case .variable(let v): emit(.setSlotPath(slot: Int32(v.slot), path, value))
        }
    }

    /// A loop's body and the jump back to `continueAt` (or `backEdge`: see
    /// ``backEdge(head:test:)``).
    ///
    /// - Returns: where the loop ends, where its `break`s go.
    private mutating func compileLoopBody(
        _ body: [Stmt], continueAt: Int32, backEdge: Code.Instruction? = nil
    ) -> Int32 {
        loops.append(Loop(continueAt: continueAt, tries: tries.count))
        compile(body)
        emitBackEdge(backEdge, to: continueAt)
        let loop = loops.removeLast()
        for i in loop.breaks { instructions[i] = .jump(to: here) }
        return here
    }

    /// A reducer's `return`: out of every `try`, then to the end.
    private mutating func compileReturn() {
        leaveTries(downTo: 0)
        jumpsToEnd.append(emitJump())
    }

    /// What a jump out of the blocks above `depth` runs on its way, innermost first (see
    /// ``Leaving``).
    mutating func leaveTries(downTo depth: Int) {
        let saved = tries
        while tries.count > depth {
            switch tries.removeLast() {
            case .tryBlock(let finally):
                emit(.tryEnd)
                if let finally { compileFinally(finally, wayOut: false, at: location) }
            case .finallyCopy:
                emit(.finallyLeave)
            }
        }
        tries = saved
    }

    /// The step of a loop's turn; its index, where `continue` goes.
    ///
    /// A limit met there is reported at the body's first statement.
    private mutating func turn(_ body: Block) -> Int32 {
        // A nested loop's own statement step comes first, outside the turn.
        if let at = pendingStep {
            pendingStep = nil
            let saved = location
            location = at
            emit(.step)
            location = saved
        }
        let head = here
        if forSaga { location = body.statements.first?.location ?? location }
        emit(.step)
        return head
    }

    /// The step taken to go on with `next` after a nested block (an arm, a loop, a `try`) that
    /// ran: none when the block ended its own block, nor in a reducer.
    mutating func stepAfterBlock(_ next: Stmt?) {
        guard forSaga, let next else { return }
        location = next.location
        emit(.step)
    }

    /// The step taken where a `try`'s body, its `catch` block, its `finally` block or a
    /// `transaction`'s body ends, which it reports where the task is (its line is
    /// ``Code/taskLocation``); none in a reducer.
    mutating func endStep() {
        guard forSaga else { return }
        let saved = location
        location = Code.taskLocation
        emit(.step)
        location = saved
    }
}

extension LValue {
    /// Whether it assigns through `state` (which only a reducer may).
    fileprivate var isState: Bool {
        if case .state = root { return true }
        return false
    }

    /// Whether it is a variable itself, with no path.
    fileprivate var isVariable: Bool {
        if path.isEmpty, case .variable = root { return true }
        return false
    }
}
