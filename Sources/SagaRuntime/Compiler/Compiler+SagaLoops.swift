import SagaCore
import SagaLanguage

/// A saga's `while`, `loop` and `for` loops, compiled into the code reducers run.
///
/// The code does what the tree walk does, step for step: a ``Code/Instruction/step`` stands
/// wherever the walk counts a step (before each statement, at each turn of a loop, and where
/// it leaves an `if`'s arm or a nested loop for the statement after it), so that the limits
/// and the yield budget fall where they fall in the walk. Assignments, `if`s, nested loops,
/// `try`s, `transaction`s, `break` and `continue` are instructions; every other statement (an effect, `log`, `throw`,
/// `return`) is a ``Code/Instruction/statement(_:)`` that the interpreter runs where it stands,
/// as the walk runs it.
extension Compiler {
    /// The loop compiled, or `nil` if it holds a `finally` block with a `break` or `continue`,
    /// a loop with an empty body, an expression that reads `state` or `it`, or a variable
    /// outside the first `slotCount`.
    ///
    /// A `let x = call f(…)` or `x = call f(…)` of a function whose body is one `return`
    /// (see ``CallShape/returnedValue``; `callShapes` has each function's) is made in the code
    /// (see ``Code/ValueCall``).
    ///
    /// A loop whose body only has statements the interpreter runs where they stand is not
    /// compiled either: its code would do nothing but leave for each of them, which the walk
    /// does at less cost.
    static func sagaLoop(_ loop: Stmt, slotCount: Int, callShapes: [CallShape]) -> Compiler? {
        guard canCompileInSaga(loop) else { return nil }
        var compiler = Compiler(slotCount: slotCount)
        compiler.callShapes = callShapes
        guard compiler.hasInstructions(loop) else { return nil }
        compiler.location = loop.location
        // The loop's own statement is the walk's step; its code starts at its first turn.
        compiler.compileSaga(loop, next: nil)
        for instruction in compiler.instructions {
            if case .fail = instruction { return nil }
        }
        return compiler
    }

    /// A block of a saga's loop: each statement, its first instruction taking its step first.
    private mutating func compileSaga(_ body: [Stmt]) {
        for (i, stmt) in body.enumerated() {
            temporariesInUse = temporaryFloor
            location = stmt.location
            pendingStep = stmt.location
            compileSaga(stmt, next: i + 1 < body.count ? body[i + 1] : nil)
        }
    }

    /// One statement of a saga's loop; `next` is the statement after it in its block.
    private mutating func compileSaga(_ stmt: Stmt, next: Stmt?) {
        switch stmt {
        case .declare(_, _, .expr(let e), _) where Self.compilesInSaga(e):
            compile(stmt)
        case .assign(let lv, .expr(let e), _)
        where Self.compilesInSaga(e) && Self.compilesInSaga(lv) && !lv.isState:
            compile(stmt)
        case .if(let arms, let elseBlock, _):
            var exits: [Int] = []
            for (i, arm) in arms.enumerated() {
                temporariesInUse = temporaryFloor
                location = stmt.location
                let test = emitTest(arm.condition)
                compileSaga(arm.body.statements)
                stepAfterBlock(next)
                // The last arm, with no `else`, ends where the `if` does.
                if i < arms.count - 1 || elseBlock != nil { exits.append(emitJump()) }
                pointTest(test, to: here)
            }
            if let elseBlock {
                compileSaga(elseBlock.statements)
                stepAfterBlock(next)
            }
            for i in exits { instructions[i] = .jump(to: here) }
        case .while(let condition, let body, _):
            let head = turn(body)
            temporariesInUse = temporaryFloor
            location = condition.location
            let test = emitTest(condition)
            let end = compileSagaLoopBody(
                body.statements, continueAt: head, backEdge: backEdge(head: head, test: test))
            pointTest(test, to: end)
            stepAfterBlock(next)
        case .loop(let body, _):
            let head = turn(body)
            _ = compileSagaLoopBody(body.statements, continueAt: head)
            stepAfterBlock(next)
        case .for(let v, let sequence, let body, _):
            guard isOwnSlot(v.slot) else { return fail("unknown variable '\(v.name)'") }
            location = stmt.location
            let sequencePlace = place(of: sequence)
            let items = Int32(temporaryFloor)
            reserveTemporaries(2)
            emit(.forStart(sequencePlace, items: items))
            let head = turn(body)
            let forNext = instructions.count
            emit(.forNext(items: items, slot: Int32(v.slot), exit: -1))
            let end = compileSagaLoopBody(body.statements, continueAt: head)
            instructions[forNext] = .forNext(items: items, slot: Int32(v.slot), exit: end)
            emit(.forEnd(items: items))
            temporaryFloor -= 2
            stepAfterBlock(next)
        case .declare, .assign:
            guard let call = valueCall(stmt) else { return site(stmt) }
            compileCall(call, stmt)
        case .break:
            guard let loop = loops.last else { return fail("break outside a loop") }
            leaveSagaTries(downTo: loop.tries)
            loops[loops.count - 1].breaks.append(emitJump())
        case .continue:
            guard let loop = loops.last else { return fail("continue outside a loop") }
            leaveSagaTries(downTo: loop.tries)
            emit(.jump(to: loop.continueAt))
        case .try(let body, let catchClause, let finally, _):
            compileSagaTry(body.statements, catchClause, finally?.statements, next: next)
        case .transaction(let body, _):
            // Left as a `try` without a `finally` block is: `tryEnd` hands its compensations on.
            let index = newHandler()
            handlers[Int(index)] = Code.Handler(
                target: -1, place: .temporary(0), clearsFrom: Int32(temporaryFloor), compensates: true)
            emit(.tryBegin(index))
            tries.append(nil)
            compileSaga(body.statements)
            tries.removeLast()
            endStep()
            emit(.tryEnd)
            stepAfterBlock(next)
        default:
            site(stmt)
        }
    }

    /// `try { … } catch e { … } finally { … }` in a saga's loop.
    ///
    /// The body runs under a handler (see ``Code/Handler``) whose `catch` block is compiled
    /// after it and whose `finally` block is compiled as its copies: after the body, after the
    /// `catch` block (which runs under a handler of its own when there is a `finally` block),
    /// and before each way out goes on. Steps stand where the walk takes them: at the end of
    /// the body and of the `catch` block, still inside them, and at the end of the `finally`
    /// block (see ``endStep()``).
    private mutating func compileSagaTry(_ body: [Stmt], _ catchClause: CatchClause?, _ finally: [Stmt]?, next: Stmt?) {
        let at = location
        let clearsFrom = Int32(temporaryFloor)
        var exits: [Int] = []
        var bodyHandler = Code.Handler(target: -1, place: .temporary(0), clearsFrom: clearsFrom)
        let bodyIndex = newHandler()
        emit(.tryBegin(bodyIndex))
        tries.append(finally)
        compileSaga(body)
        tries.removeLast()
        endStep()
        emit(.tryEnd)
        if let finally { compileSagaFinally(finally) }
        stepAfterBlock(next)
        exits.append(emitJump())
        if let catchClause {
            guard isOwnSlot(catchClause.binding.slot) else {
                return fail("unknown variable '\(catchClause.binding.name)'")
            }
            bodyHandler.place = .slot(Int32(catchClause.binding.slot))
            bodyHandler.target = here
            if let finally {
                location = at
                let catchIndex = newHandler()
                emit(.tryBegin(catchIndex))
                tries.append(finally)
                compileSaga(catchClause.body.statements)
                tries.removeLast()
                endStep()
                emit(.tryEnd)
                compileSagaFinally(finally)
                stepAfterBlock(next)
                exits.append(emitJump())
                handlers[Int(catchIndex)] = Code.Handler(
                    target: -1, place: .temporary(0), clearsFrom: clearsFrom, finally: here)
                compileSagaFinally(finally)
                emit(.finallyEnd)
            } else {
                compileSaga(catchClause.body.statements)
                endStep()
                stepAfterBlock(next)
                exits.append(emitJump())
            }
        }
        if let finally {
            bodyHandler.finally = here
            compileSagaFinally(finally)
            emit(.finallyEnd)
        }
        handlers[Int(bodyIndex)] = bodyHandler
        for i in exits { instructions[i] = .jump(to: here) }
    }

    /// The step the walk takes where a `try`'s body, its `catch` block or its `finally`
    /// block ends, which it reports where the task is: its line is ``Code/taskLocation``.
    private mutating func endStep() {
        let saved = location
        location = Code.taskLocation
        emit(.step)
        location = saved
    }

    /// A copy of a `finally` block, then the step of its end.
    private mutating func compileSagaFinally(_ finally: [Stmt]) {
        let saved = temporariesInUse
        compileSaga(finally)
        temporariesInUse = saved
        endStep()
    }

    /// What a `break` or `continue` runs on its way out of the `try`s above `depth`,
    /// innermost first: each one's handler ends, and its `finally` block, if any, runs.
    private mutating func leaveSagaTries(downTo depth: Int) {
        let saved = tries
        while tries.count > depth {
            let finally = tries.removeLast()
            emit(.tryEnd)
            if let finally { compileSagaFinally(finally) }
        }
        tries = saved
    }

    /// A statement the interpreter runs where it stands: a `take` of a type and a `put` of a
    /// literal action as instructions of their own, any other as the walk runs it.
    private mutating func site(_ stmt: Stmt) {
        sites.append(stmt)
        let site = Int32(sites.count - 1)
        switch SiteKind(stmt) {
        case .statement:
            emit(.statement(site))
        case .take(let pattern, let slot):
            takes.append((pattern, Int32(slot), site))
            emit(.take(Int32(takes.count - 1)))
        case .put(let action, let slot):
            puts.append((action, Int32(slot), site))
            emit(.put(Int32(puts.count - 1)))
        }
    }

    /// A call of a one-`return` function: its arguments into places, ``Code/Instruction/call(_:)``,
    /// each argument that is neither a variable nor a constant moved into a local, the code of
    /// the function's expression over those places, and ``Code/Instruction/callReturn(_:_:)``.
    private mutating func compileCall(
        _ call: (function: Int, arguments: [Expr], slot: Int, value: Expr), _ stmt: Stmt
    ) {
        let clearsFrom = Int32(temporariesInUse)
        let arguments = call.arguments.map { place(of: $0) }
        var parameters: [Code.Place] = []
        var moves: [(Code.Place, Code.Place)] = []
        for argument in arguments {
            switch argument {
            case .slot, .constant:
                parameters.append(argument)
            case .temporary, .local:
                let local = Code.Place.local(Int32(moves.count))
                moves.append((argument, local))
                parameters.append(local)
            }
        }
        localCount = Swift.max(localCount, moves.count)
        sites.append(stmt)
        let index = Int32(valueCalls.count)
        let valueCall = Code.ValueCall(
            function: Int32(call.function), arguments: parameters, target: .slot(Int32(call.slot)),
            site: Int32(sites.count - 1), clearsFrom: clearsFrom, locals: 0..<Int32(moves.count))
        valueCalls.append(valueCall)
        emit(.call(index))
        valueCall.callAt = Int32(instructions.count - 1)
        for (from, to) in moves { emit(.move(from, into: to)) }
        parameterPlaces = parameters
        let value = place(of: call.value)
        parameterPlaces = nil
        emit(.callReturn(index, value))
        valueCall.returnAt = Int32(instructions.count - 1)
        if valueCall.returnAt == valueCall.callAt + 1 { valueCall.returnsAtOnce = value }
    }

    /// Whether a loop's body has a statement that is instructions of the code's own.
    ///
    /// Such a statement is an assignment or declaration (a call made in the code included), an
    /// `if`, a nested loop, or a `take` or `put` of the forms ``SiteKind`` names. It is looked
    /// for before the loop is compiled: a loop that does not compile is looked at each time
    /// it is entered.
    private func hasInstructions(_ loop: Stmt) -> Bool {
        let body: Block
        switch loop {
        case .while(_, let b, _), .loop(let b, _), .for(_, _, let b, _): body = b
        default: return false
        }
        return body.statements.contains { stmt in
            switch stmt {
            case .declare(_, _, .expr, _), .assign(_, .expr, _), .if, .while, .loop, .for, .try, .transaction:
                return true
            default:
                if valueCall(stmt) != nil { return true }
                if case .statement = SiteKind(stmt) { return false }
                return true
            }
        }
    }

    /// The parts of `let x = call f(…)` or `x = call f(…)` of a function whose body is one
    /// `return` of an expression that compiles, with arguments that compile, or `nil`.
    private func valueCall(_ stmt: Stmt) -> (function: Int, arguments: [Expr], slot: Int, value: Expr)? {
        let slot: Int
        let effect: Effect
        switch stmt {
        case .declare(let v, _, .effect(let e), _):
            (slot, effect) = (v.slot, e)
        case .assign(let lv, .effect(let e), _):
            guard lv.path.isEmpty, case .variable(let v) = lv.root else { return nil }
            (slot, effect) = (v.slot, e)
        default:
            return nil
        }
        guard isOwnSlot(slot), case .call(.function(let function, _), let arguments, _) = effect,
            callShapes.indices.contains(function), let value = callShapes[function].returnedValue,
            Self.compilesInSaga(value), arguments.allSatisfy(Self.compilesInSaga)
        else { return nil }
        return (function, arguments, slot, value)
    }

    /// The step of a loop's turn; its index, where `continue` goes.
    ///
    /// The walk reports a limit met there at the body's first statement.
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
        location = body.statements.first?.location ?? location
        emit(.step)
        return head
    }

    /// The step the walk takes to go on with `next` after a nested block (an arm, a loop)
    /// that ran: none when the block ended its own block.
    private mutating func stepAfterBlock(_ next: Stmt?) {
        guard let next else { return }
        location = next.location
        emit(.step)
    }

    /// A loop's body and the jump back to `continueAt` (or `backEdge`: see
    /// ``backEdge(head:test:)``); where the loop ends.
    private mutating func compileSagaLoopBody(
        _ body: [Stmt], continueAt: Int32, backEdge: Code.Instruction? = nil
    ) -> Int32 {
        loops.append(Loop(continueAt: continueAt, tries: tries.count))
        compileSaga(body)
        emitBackEdge(backEdge, to: continueAt)
        let loop = loops.removeLast()
        for i in loop.breaks { instructions[i] = .jump(to: here) }
        return here
    }

    // MARK: What compiles

    /// Whether a loop statement compiles (see ``sagaLoop(_:slotCount:callShapes:)``).
    static func canCompileInSaga(_ stmt: Stmt) -> Bool {
        switch stmt {
        case .declare, .assign, .effect, .log, .throw, .break, .continue, .return, .compensate:
            return true
        case .transaction(let body, _):
            return canCompileInSaga(body.statements)
        case .if(let arms, let elseBlock, _):
            return arms.allSatisfy { compilesInSaga($0.condition) && canCompileInSaga($0.body.statements) }
                && (elseBlock.map { canCompileInSaga($0.statements) } ?? true)
        case .while(let condition, let body, _):
            return compilesInSaga(condition) && !body.statements.isEmpty && canCompileInSaga(body.statements)
        case .loop(let body, _):
            return !body.statements.isEmpty && canCompileInSaga(body.statements)
        case .for(_, let sequence, let body, _):
            return compilesInSaga(sequence) && !body.statements.isEmpty && canCompileInSaga(body.statements)
        case .try(let body, let catchClause, let finally, _):
            // A `break` or `continue` in a `finally` block would leave it without going on with
            // the way out that ran it.
            return canCompileInSaga(body.statements)
                && (catchClause.map { canCompileInSaga($0.body.statements) } ?? true)
                && (finally.map { canCompileInSaga($0.statements) && !leavesLoop($0.statements) } ?? true)
        }
    }

    /// Whether a block has a `break` or `continue`, at any depth.
    private static func leavesLoop(_ body: [Stmt]) -> Bool {
        body.contains { stmt in
            switch stmt {
            case .break, .continue: return true
            case .if(let arms, let elseBlock, _):
                return arms.contains { leavesLoop($0.body.statements) } || leavesLoop(elseBlock?.statements ?? [])
            case .while(_, let body, _), .loop(let body, _), .for(_, _, let body, _), .transaction(let body, _),
                .compensate(let body, _):
                return leavesLoop(body.statements)
            case .try(let body, let catchClause, let finally, _):
                return leavesLoop(body.statements) || leavesLoop(catchClause?.body.statements ?? [])
                    || leavesLoop(finally?.statements ?? [])
            default: return false
            }
        }
    }

    private static func canCompileInSaga(_ body: [Stmt]) -> Bool {
        body.allSatisfy(canCompileInSaga)
    }

    /// Whether an expression compiles to what the walk's evaluator computes: anything but
    /// `state` and `it`, which a saga's statements do not read.
    static func compilesInSaga(_ e: Expr) -> Bool {
        switch e {
        case .literal, .variable, .cancelled: return true
        case .state, .it: return false
        case .interpolation(let parts, _):
            return parts.allSatisfy {
                if case .expr(let e) = $0 { return compilesInSaga(e) }
                return true
            }
        case .list(let items, _): return items.allSatisfy(compilesInSaga)
        case .record(let fields, _): return fields.allSatisfy { compilesInSaga($0.value) }
        case .member(let base, _, _): return compilesInSaga(base)
        case .index(let base, let index, _): return compilesInSaga(base) && compilesInSaga(index)
        case .unary(_, let operand, _): return compilesInSaga(operand)
        case .binary(_, let lhs, let rhs, _): return compilesInSaga(lhs) && compilesInSaga(rhs)
        case .builtin(let name, let args, _): return Builtin(rawValue: name) != nil && args.allSatisfy(compilesInSaga)
        }
    }

    /// Whether an assignment's path indexes compile.
    private static func compilesInSaga(_ lv: LValue) -> Bool {
        lv.path.allSatisfy {
            if case .index(let e) = $0 { return compilesInSaga(e) }
            return true
        }
    }
}

extension LValue {
    /// Whether it assigns through `state` (which only a reducer may).
    fileprivate var isState: Bool {
        if case .state = root { return true }
        return false
    }
}
