import SagaCore
import SagaLanguage

/// Compiles a checked body into ``Code``: statements and expressions become flat
/// instructions over places (variables, temporaries, constants), jumps for control flow, and
/// handlers for `try`.
///
/// `try … finally` is compiled as its copies: the `finally` block follows the body, follows
/// the `catch` block, and runs before the error goes on when neither catches it; a `break`,
/// `continue` or `return` that leaves the `try` runs a copy on its way out too.
struct Compiler {
    var instructions: [Code.Instruction] = []
    var lines: [SourceLocation] = []
    var keys: [String] = []
    var constants: [Value] = []
    var paths: [[Code.PathStep]] = []
    var records: [[(key: Int32, value: Code.Place)]] = []
    var calls: [(builtin: Builtin, arguments: [Code.Place])] = []
    var handlers: [Code.Handler] = []
    /// Where a saga statement stands whose step is still to be emitted: before the next
    /// instruction, unless that instruction takes it itself (see
    /// ``Code/Instruction/statement(_:)``, ``Code/ValueCall/stepsFirst``).
    var pendingStep: SourceLocation?
    /// The statements of a saga's loop that the interpreter runs (see
    /// ``Code/Instruction/statement(_:)``).
    var sites: [Stmt] = []
    /// The calls of one-`return` functions in a saga's loop (see ``Code/ValueCall``).
    var valueCalls: [Code.ValueCall] = []
    /// How each function is called, by index: a saga's loop makes the calls of those whose
    /// body is one `return` in its code (see ``Code/ValueCall``).
    var callShapes: [CallShape] = []
    /// While a called function's expression is compiled: the places of its variables, its
    /// arguments (see ``Code/ValueCall``).
    var parameterPlaces: [Code.Place]?
    /// How many locals the code's calls use (see ``Code/Place/local(_:)``).
    var localCount = 0
    /// The `put`s and `take`s of a saga's loop that are instructions of their own (see
    /// ``Code/puts``, ``Code/takes``).
    var puts: [(action: Value, slot: Int32, site: Int32)] = []
    var takes: [(pattern: ActionPattern, slot: Int32, site: Int32)] = []
    /// How many temporaries the code uses at most.
    var temporaryCount = 0

    /// The number of the body's own variables: a slot outside them is an error.
    let slotCount: Int
    /// Where the instructions being emitted come from.
    var location = SourceLocation(file: -1, line: 0, column: 0)
    /// Temporaries in use while the current statement is compiled.
    var temporariesInUse = 0
    /// The temporaries below this are the items and indexes of the `for` loops, and the
    /// errors of the `try … finally`s, being compiled: a statement's own temporaries start
    /// above them.
    var temporaryFloor = 0
    /// Whether the code has a `for` (whose temporaries a `return` may leave set).
    var hasFor = false
    /// Jumps to the end of the code (`return`, and `break` or `continue` outside a loop), set
    /// once the end is known.
    private var jumpsToEnd: [Int] = []

    /// A loop being compiled: where `continue` goes, the `break`s to point at its end, and
    /// how many `try`s enclosed it.
    struct Loop {
        var continueAt: Int32
        var breaks: [Int] = []
        var tries: Int
    }

    var loops: [Loop] = []
    /// The `try`s being compiled, innermost last: what a jump out of each must run.
    var tries: [[Stmt]?] = []

    init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// Compiles a whole body, which ends at the end of the code.
    mutating func compile(body: [Stmt]) {
        compile(body)
        let end = Int32(instructions.count)
        if hasFor { emit(.clearTemporaries) }
        for i in jumpsToEnd { instructions[i] = .jump(to: end) }
        jumpsToEnd = []
    }

    /// Appends an instruction, noting where it comes from.
    mutating func emit(_ instruction: Code.Instruction) {
        if let at = pendingStep {
            pendingStep = nil
            switch instruction {
            case .statement, .take, .put:
                // It takes its statement's step itself.
                break
            case .call(let index):
                valueCalls[Int(index)].stepsFirst = true
            default:
                instructions.append(.step)
                lines.append(at)
            }
        }
        instructions.append(instruction)
        lines.append(location)
    }

    /// The next instruction's index.
    var here: Int32 { Int32(instructions.count) }

    /// Emits a jump to be pointed later (`patch(_:to:)`); its index.
    mutating func emitJump() -> Int {
        emit(.jump(to: -1))
        return instructions.count - 1
    }

    // MARK: Statements

    private mutating func compile(_ body: [Stmt]) {
        for stmt in body {
            temporariesInUse = temporaryFloor
            location = stmt.location
            compile(stmt)
        }
    }

    /// Compiles a path's indexes, in order, and adds the path to ``paths``.
    private mutating func pathIndex(_ path: [LValue.Step]) -> Int32 {
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

    mutating func compile(_ stmt: Stmt) {
        switch stmt {
        case .declare(let v, _, .expr(let e), _):
            guard isOwnSlot(v.slot) else { return fail("unknown variable '\(v.name)'") }
            compile(e, into: .slot(Int32(v.slot)))
        case .assign(let lv, .expr(let e), _) where lv.path.isEmpty:
            guard case .variable(let v) = lv.root else {
                // `state = …`: the whole state replaced, logged for undo.
                let value = place(of: e)
                emit(.setStatePath(pathIndex([]), value))
                return
            }
            guard isOwnSlot(v.slot) else { return fail("unknown variable '\(v.name)'") }
            // `x = x + …`: the operand, then the variable extended in place.
            if case .binary(.add, .variable(let read), let rhs, _) = e, read.slot == v.slot {
                emit(.addToSlot(slot: Int32(v.slot), place(of: rhs)))
                return
            }
            compile(e, into: .slot(Int32(v.slot)))
        case .assign(let lv, .expr(let e), _):
            compileAssignment(lv, e)
        case .if(let arms, let elseBlock, _):
            var exits: [Int] = []
            for (i, arm) in arms.enumerated() {
                temporariesInUse = temporaryFloor
                let test = emitTest(arm.condition)
                compile(arm.body.statements)
                // The last arm, with no `else`, ends where the `if` does.
                if i < arms.count - 1 || elseBlock != nil { exits.append(emitJump()) }
                pointTest(test, to: here)
            }
            if let elseBlock { compile(elseBlock.statements) }
            for i in exits { instructions[i] = .jump(to: here) }
        case .while(let condition, let body, _):
            // A step, then the condition, at the top of each turn.
            let head = here
            emit(.step)
            let test = emitTest(condition)
            let end = compileLoopBody(body.statements, continueAt: head, backEdge: backEdge(head: head, test: test))
            pointTest(test, to: end)
        case .loop(let body, _):
            let head = here
            emit(.step)
            _ = compileLoopBody(body.statements, continueAt: head)
        case .for(let v, let sequence, let body, _):
            guard isOwnSlot(v.slot) else { return fail("unknown variable '\(v.name)'") }
            let sequencePlace = place(of: sequence)
            // Its two temporaries stay reserved while its body is compiled.
            let items = Int32(temporaryFloor)
            reserveTemporaries(2)
            hasFor = true
            emit(.forStart(sequencePlace, items: items))
            let head = here
            emit(.forNext(items: items, slot: Int32(v.slot), exit: -1))
            let end = compileLoopBody(body.statements, continueAt: head)
            instructions[Int(head)] = .forNext(items: items, slot: Int32(v.slot), exit: end)
            emit(.forEnd(items: items))
            temporaryFloor -= 2
        case .break:
            // `break` or `continue` outside a loop ends the body, as a `return` does.
            guard let loop = loops.last else { return compileReturn() }
            leaveTries(downTo: loop.tries)
            loops[loops.count - 1].breaks.append(emitJump())
        case .continue:
            guard let loop = loops.last else { return compileReturn() }
            leaveTries(downTo: loop.tries)
            emit(.jump(to: loop.continueAt))
        case .return:
            // A reducer's `return` ends it (its value is not used).
            compileReturn()
        case .try(let body, let catchClause, let finally, _):
            compileTry(body.statements, catchClause, finally?.statements)
        case .declare(_, _, .effect, _), .assign(_, .effect, _), .effect, .log, .throw, .transaction, .compensate:
            fail("effects are not allowed in a reducer")
        }
    }

    /// Emits the test of a condition; its index.
    ///
    /// The test jumps past what it guards unless the condition holds; ``pointTest(_:to:)``
    /// points it. A comparison is one instruction.
    mutating func emitTest(_ condition: Expr) -> Int {
        if case .binary(let op, let lhs, let rhs, _) = condition, Self.isComparison(op) {
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
        default: break
        }
    }

    private static func isComparison(_ op: BinaryOperator) -> Bool {
        switch op {
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return true
        default: return false
        }
    }

    /// An assignment through a path: `state.key = …`, `state.a[i].b = …`, `x.key = …`.
    private mutating func compileAssignment(_ lv: LValue, _ e: Expr) {
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
        if case .variable(let v) = lv.root, !isOwnSlot(v.slot) { return fail("unknown variable '\(v.name)'") }
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

    /// A loop's body and the jump back to `continueAt`, its head.
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

    /// `return`: out of every `try`, then to the end.
    private mutating func compileReturn() {
        leaveTries(downTo: 0)
        jumpsToEnd.append(emitJump())
    }

    /// What leaving the `try`s above `depth` runs, innermost first: each one's handler ends,
    /// and its `finally` block, if any, runs (as if the `try` had ended there).
    private mutating func leaveTries(downTo depth: Int) {
        let saved = tries
        while tries.count > depth {
            let finally = tries.removeLast()
            emit(.popHandler)
            if let finally { compileCopy(of: finally) }
        }
        tries = saved
    }

    /// `try { body } catch e { … } finally { … }`.
    ///
    /// The body runs under a handler. Without a `catch`, the handler runs a copy of the
    /// `finally` block and fails again with the error; with one, it runs the `catch` block, under
    /// a handler of its own when there is a `finally` block.
    private mutating func compileTry(_ body: [Stmt], _ catchClause: CatchClause?, _ finally: [Stmt]?) {
        // The checker refuses a `try` with neither: it would run as one with an empty
        // `finally` block.
        let finally = finally ?? (catchClause == nil ? [] : nil)
        let floor = temporaryFloor
        // Where the error waits while the `finally` block runs before it goes on.
        let error = Code.Place.temporary(Int32(floor))
        reserveTemporaries(1)
        let clearsFrom = Int32(temporaryFloor)
        var exits: [Int] = []

        let bodyHandler = newHandler()
        emit(.pushHandler(bodyHandler))
        tries.append(finally)
        compile(body)
        tries.removeLast()
        emit(.popHandler)
        if let finally { compileCopy(of: finally) }
        exits.append(emitJump())

        if let catchClause, isOwnSlot(catchClause.binding.slot) {
            let binding = Code.Place.slot(Int32(catchClause.binding.slot))
            handlers[Int(bodyHandler)] = Code.Handler(target: here, place: binding, clearsFrom: clearsFrom)
            if let finally {
                let catchHandler = newHandler()
                emit(.pushHandler(catchHandler))
                tries.append(finally)
                compile(catchClause.body.statements)
                tries.removeLast()
                emit(.popHandler)
                compileCopy(of: finally)
                exits.append(emitJump())
                handlers[Int(catchHandler)] = Code.Handler(target: here, place: error, clearsFrom: clearsFrom)
                compileCopy(of: finally)
                emit(.rethrow(error))
            } else {
                compile(catchClause.body.statements)
            }
        } else if let catchClause {
            handlers[Int(bodyHandler)] = Code.Handler(target: here, place: error, clearsFrom: clearsFrom)
            fail("unknown variable '\(catchClause.binding.name)'")
        } else {
            handlers[Int(bodyHandler)] = Code.Handler(target: here, place: error, clearsFrom: clearsFrom)
            compileCopy(of: finally ?? [])
            emit(.rethrow(error))
        }
        for i in exits { instructions[i] = .jump(to: here) }
        temporaryFloor = floor
    }

    /// A copy of a `finally` block, where its statements' temporaries start afresh.
    private mutating func compileCopy(of block: [Stmt]) {
        let saved = (temporariesInUse, location)
        compile(block)
        (temporariesInUse, location) = saved
    }

    /// A new handler, pointed once its target is known.
    mutating func newHandler() -> Int32 {
        handlers.append(Code.Handler(target: -1, place: .temporary(0), clearsFrom: 0))
        return Int32(handlers.count - 1)
    }

    /// Keeps `count` more temporaries from the statements' use until `temporaryFloor` is
    /// lowered again.
    mutating func reserveTemporaries(_ count: Int) {
        temporaryFloor += count
        temporariesInUse = Swift.max(temporariesInUse, temporaryFloor)
        temporaryCount = Swift.max(temporaryCount, temporaryFloor)
    }

    /// An instruction that fails with a `TypeError`: what the checker refuses.
    mutating func fail(_ message: String) {
        emit(.fail(key: keyIndex(message)))
    }

    func isOwnSlot(_ slot: Int) -> Bool {
        slot >= 0 && slot < slotCount
    }

    mutating func keyIndex(_ key: String) -> Int32 {
        if let i = keys.firstIndex(where: { Record.sameKey($0, key) }) { return Int32(i) }
        keys.append(key)
        return Int32(keys.count - 1)
    }

    mutating func newTemporary() -> Code.Place {
        let t = Code.Place.temporary(Int32(temporariesInUse))
        temporariesInUse += 1
        temporaryCount = Swift.max(temporaryCount, temporariesInUse)
        return t
    }

    mutating func addRecord(_ entries: [(key: Int32, value: Code.Place)]) -> Int32 {
        records.append(entries)
        return Int32(records.count - 1)
    }

    mutating func addCall(_ builtin: Builtin, _ arguments: [Code.Place]) -> Int32 {
        calls.append((builtin, arguments))
        return Int32(calls.count - 1)
    }

    mutating func addConstant(_ value: Value) -> Code.Place {
        constants.append(value)
        return .constant(Int32(constants.count - 1))
    }
}
