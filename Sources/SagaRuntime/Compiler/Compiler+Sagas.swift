import SagaCore
import SagaLanguage

/// A saga task's body, compiled into the code reducers run (see `Compiler+Statements.swift` for
/// the steps it takes): assignments, `if`s, loops, `try`s, `transaction`s, `break`,
/// `continue`, `log`, `throw` and `return` are instructions; an effect (and `compensate`) is a
/// ``Code/Instruction/statement(_:)`` that the interpreter runs where it stands, or one of the
/// instructions ``site(_:)`` and ``compileCall(_:_:)`` make of the commonest.
extension Compiler {
    /// A task's body compiled (a saga's, a function's, a forked block's, a watcher's, a
    /// compensation's); `nil` if it names a variable outside the task's frame.
    ///
    /// The step that finds the end of the body is the step loop's, not an instruction (see
    /// ``Interpreter/stepLoop(_:)``).
    static func sagaBody(_ statements: [Stmt], slotCount: Int, returnedValues: [Expr?]) -> Compiler? {
        var compiler = Compiler(slotCount: slotCount)
        compiler.forSaga = true
        compiler.returnedValues = returnedValues
        compiler.compile(statements)
        return compiler.refusesBody ? nil : compiler
    }

    /// The body of a `race` or `all` entry: its effect, its value into a temporary, and that
    /// value returned; `nil` if the effect names a variable outside the frame.
    ///
    /// The body reads the frame of the task that runs the combinator and writes none of it, so
    /// the entry's task runs over that frame as it is, not a copy.
    static func effectTask(
        _ effect: Effect, at loc: SourceLocation, slotCount: Int, returnedValues: [Expr?]
    )
        -> Compiler?
    {
        var compiler = Compiler(slotCount: slotCount)
        compiler.forSaga = true
        compiler.returnedValues = returnedValues
        let result = compiler.newTemporary()
        let stmt = Stmt.effect(effect, loc)
        if case .select(let e, _) = effect {
            compiler.emit(.selectState(site: compiler.addSite(stmt)))
            compiler.selecting = true
            compiler.compile(e ?? .state(loc), into: result)
            compiler.selecting = false
            // The state let go of, the value kept (reading a temporary takes its value).
            compiler.emit(.selectEnd(compiler.addConstant(.null)))
        } else if case .call(.function(let function, _), let arguments, _) = effect,
            returnedValues.indices.contains(function), let value = returnedValues[function]
        {
            compiler.compileCall((function, arguments, -1, value), stmt, into: result)
        } else if case .temporary(let t) = result {
            // Run by the interpreter, its value into the temporary (see ``Code/Site/result``).
            compiler.runWhereItStands(compiler.addSite(stmt, result: t), stmt)
        }
        compiler.emit(.returnValue(result))
        return compiler.refusesBody ? nil : compiler
    }

    /// A statement the interpreter runs where it stands: a `take` of a type, a `put` of a
    /// literal action or of a type and a record literal, and a `cancel` or `join` of a
    /// variable, as instructions of their own, any other by the interpreter.
    mutating func site(_ stmt: Stmt, resultInto result: Int32 = -1) {
        let site = addSite(stmt, result: result)
        if result < 0, Code.Site.fork(of: stmt) != nil {
            siteOperands[Int(site)] = []
            return emit(.forkBlock(site: site))
        }
        switch SiteKind(stmt) {
        case .statement:
            runWhereItStands(site, stmt)
        case .take(let pattern, let slot):
            takes.append((pattern, Int32(slot), site))
            emit(.take(Int32(takes.count - 1)))
        case .put(let action, let slot):
            puts.append((action, Int32(slot), site))
            emit(.put(Int32(puts.count - 1)))
        case .putRecord(let type, let fields, let slot):
            // The action is the record literal with `type` among its fields, built where it
            // will be put; the statement's step comes before the first field.
            let action = newTemporary()
            let at = stmt.location
            compile(.record(fields + [RecordField(key: "type", value: .literal(.string(type), at))], at), into: action)
            puts.append((.null, Int32(slot), site))
            emit(.putBuilt(action, Int32(puts.count - 1)))
        case .cancel(let task):
            // Run where it stands over the variable, where it is not a task.
            guard case .slot(let slot) = place(of: .variable(task)) else { return runWhereItStands(site, stmt) }
            siteOperands[Int(site)] = [.slot(slot)]
            emit(.cancelTask(slot: slot, site: site))
        case .join(let task, let into):
            guard case .slot(let slot) = place(of: .variable(task)) else { return runWhereItStands(site, stmt) }
            siteOperands[Int(site)] = [.slot(slot)]
            emit(.joinTask(slot: slot, into: Int32(into), site: site))
        }
    }

    /// Statement `site`, `stmt`, run by the interpreter where it stands: its effect's operands
    /// first, where the statement's step comes before the first instruction; a statement whose
    /// operands need none takes its step itself.
    mutating func runWhereItStands(_ site: Int32, _ stmt: Stmt) {
        let start = instructions.count
        siteOperands[Int(site)] = (Self.effect(of: stmt)?.operands ?? []).map { place(of: $0) }
        emit(instructions.count == start ? .statement(site) : .effect(site))
    }

    /// A call of a one-`return` function: its arguments into places, ``Code/Instruction/call(_:)``,
    /// each argument that is neither a variable nor a constant moved into a local, the code of
    /// the function's expression over those places, and ``Code/Instruction/callReturn(_:_:)``.
    ///
    /// The value goes into `target`, or, without one, into the call's variable.
    mutating func compileCall(
        _ call: (function: Int, arguments: [Expr], slot: Int, value: Expr), _ stmt: Stmt,
        into target: Code.Place? = nil
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
        // A statement that stands for the call gives its value where the call would.
        var result: Int32 = -1
        if case .temporary(let t)? = target { result = t }
        let site = addSite(stmt, operands: arguments, result: result)
        let failSite = addSite(stmt, operands: parameters, result: result)
        let index = Int32(valueCalls.count)
        let valueCall = Code.ValueCall(
            function: Int32(call.function), arguments: parameters, target: target ?? .slot(Int32(call.slot)),
            site: site, failSite: failSite, clearsFrom: clearsFrom, locals: 0..<Int32(moves.count))
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

    /// A `select` (of `e`, or of the whole state), its value into `target` (`nil`: nowhere):
    /// the expression is code over the store's state, between
    /// ``Code/Instruction/selectState(site:)`` and ``Code/Instruction/selectEnd(_:)``;
    /// `select state.key` or `select` into a variable is ``Code/Instruction/select(key:slot:site:)``.
    mutating func compileSelect(_ e: Expr?, _ stmt: Stmt, into target: LValue?) {
        let site = addSite(stmt)
        let at = stmt.location
        var slot: Int32?
        if let target, target.path.isEmpty, case .variable(let v) = target.root {
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            slot = Int32(v.slot)
        }
        if let slot {
            switch e {
            case nil, .state?: return emit(.select(key: -1, slot: slot, site: site))
            case .member(.state, let key, _)?: return emit(.select(key: keyIndex(key), slot: slot, site: site))
            default: break
            }
        }
        emit(.selectState(site: site))
        selecting = true
        if let slot {
            compile(e ?? .state(at), into: .slot(slot))
            selecting = false
            return emit(.selectEnd(.slot(slot)))
        }
        let value = place(of: e ?? .state(at))
        selecting = false
        guard let target else { return emit(.selectEnd(value)) }
        // Stored through its path as a value an effect gives is (see ``compileStore(_:to:)``),
        // then the state let go of.
        compileStore(value, to: target)
        emit(.selectEnd(addConstant(.null)))
    }

    /// Stores the value in `value` at `target`, whose path's indexes are computed first, in
    /// order; `state` cannot be assigned in a saga.
    mutating func compileStore(_ value: Code.Place, to target: LValue) {
        switch target.root {
        case .state:
            _ = pathIndex(target.path)
            fail("'state' can only be assigned in a reducer")
        case .variable(let v):
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            emit(.setSlotPath(slot: Int32(v.slot), pathIndex(target.path), value))
        }
    }

    /// Adds a statement the interpreter runs where it stands, with the places of its effect's
    /// operands and the temporary its value waits in (-1: none); its index among ``sites``.
    mutating func addSite(_ stmt: Stmt, operands: [Code.Place] = [], result: Int32 = -1) -> Int32 {
        sites.append(stmt)
        siteOperands.append(operands)
        siteResults.append(result)
        return Int32(sites.count - 1)
    }

    /// The effect of an effect statement (`EFFECT`, `let x = EFFECT`, `x = EFFECT`).
    static func effect(of stmt: Stmt) -> Effect? {
        switch stmt {
        case .declare(_, _, .effect(let effect), _), .assign(_, .effect(let effect), _), .effect(let effect, _):
            return effect
        default:
            return nil
        }
    }

    /// The parts of `let x = call f(…)` or `x = call f(…)` of a function whose body is one
    /// `return` of an expression that compiles, with arguments that compile, or `nil`.
    func valueCall(_ stmt: Stmt) -> (function: Int, arguments: [Expr], slot: Int, value: Expr)? {
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
            returnedValues.indices.contains(function), let value = returnedValues[function]
        else { return nil }
        return (function, arguments, slot, value)
    }
}
