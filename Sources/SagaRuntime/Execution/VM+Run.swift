import SagaCore
import SagaLanguage

extension VM {
    /// Runs code (see ``Code``) over the state and the variables in `slots`; `temporaries` has
    /// room for the code's ``Code/temporaryCount``.
    ///
    /// A reducer's variables start as the action in slot 0 and `.null` in the others; code
    /// that ``Code/readsOnlyTheAction`` reads the action's members from `action`, where it
    /// is, and reads no variable.
    ///
    /// An instruction that fails inside a `try` goes to the innermost handler: the temporaries
    /// the failure may have left are set back to null, the error's value goes into the
    /// handler's place, and the code goes on at its target.
    ///
    /// The code starts at `pc`, and leaves it where it stopped (past the instruction that
    /// failed, when it throws): at its end, past a ``Code/Instruction/statement(_:)`` it
    /// stopped at, or at the step that paused it.
    func run(
        _ code: Code, _ state: inout Value, _ slots: UnsafeMutablePointer<Value>, action: Value,
        _ temporaries: UnsafeMutablePointer<Value>, _ ev: Evaluator, pc: inout Int, steps: inout CodeSteps
    ) throws(SagaError) -> CodeExit {
        let count = code.instructionCount
        let instructions = code.instructionBase
        let onlyTheAction = code.readsOnlyTheAction
        let places = CodePlaces(
            slots: slots, temporaries: temporaries, constants: code.constantBase,
            locals: temporaries + code.temporaryCount)
        while true {
            do throws(SagaError) {
                while pc < count {
                    let instruction = instructions[pc]
                    pc &+= 1
                    switch instruction {
                    case .move(let from, let to):
                        places.write(places.read(from), to)
                    case .stateMember(let key, let to):
                        places.write(try Evaluator.member(code.keys[Int(key)], of: state), to)
                    case .member(let base, let key, let to):
                        // A variable's or a constant's member is read where the base is:
                        // reading it out would copy it (a retain and a release of the action).
                        let name = code.keys[Int(key)]
                        switch base {
                        case .slot(let s):
                            // The action, a parameter, is read with no copy at all.
                            if onlyTheAction {
                                places.write(try Evaluator.member(name, of: action), to)
                            } else {
                                places.write(try Evaluator.member(name, of: slots[Int(s)]), to)
                            }
                        case .constant, .local:
                            places.write(try Evaluator.member(name, of: places[base].pointee), to)
                        case .temporary: places.write(try Evaluator.member(name, of: places.read(base)), to)
                        }
                    case .binary(let op, let lhs, let rhs, let to):
                        if let x = places.integer(lhs), let y = places.integer(rhs),
                            let value = Evaluator.integerBinary(op, x, y)
                        {
                            places.emptied(lhs)
                            places.emptied(rhs)
                            places.write(value, to)
                            break
                        }
                        let a = places.read(lhs)
                        places.write(try ev.apply(op, a, places.read(rhs)), to)
                    case .unary(let op, let operand, let to):
                        places.write(try Evaluator.apply(op, places.read(operand)), to)
                    case .logical(let op, let lhs, let to, let decided):
                        let a = try Evaluator.logicalOperand(op, places.read(lhs))
                        if op == .and ? !a : a {
                            places.write(.bool(a), to)
                            pc = Int(decided)
                        }
                    case .logicalRight(let op, let rhs, let to):
                        places.write(.bool(try Evaluator.logicalOperand(op, places.read(rhs))), to)
                    case .unlessNull(let lhs, let to, let target):
                        let l = places.read(lhs)
                        if case .null = l { break }
                        places.write(l, to)
                        pc = Int(target)
                    case .newList(let capacity, let to):
                        var items: [Value] = []
                        items.reserveCapacity(Int(capacity))
                        places.write(.list(items), to)
                    case .append(let item, .temporary(let t)):
                        let value = places.read(item)
                        try Value.checkDepth(of: value)
                        // Moved out and back, so that the list is appended to in place.
                        guard case .list(var items) = (temporaries + Int(t)).move() else {
                            (temporaries + Int(t)).initialize(to: .null)
                            break
                        }
                        items.append(value)
                        (temporaries + Int(t)).initialize(to: .list(items))
                    case .state(let to):
                        places.write(state, to)
                    case .setStateMember(let key, let from):
                        let value = places.read(from)
                        let name = code.keys[Int(key)]
                        if logging { undo.willAssign(state, through: name) }
                        try PathAssignment.setMember(&state, name, value)
                    case .stateMemberUnlessRecord(let key, let to):
                        if case .record = state { break }
                        places.write(try Evaluator.member(code.keys[Int(key)], of: state), to)
                    case .updateStateMember(let key, let op, let lhs, let rhs):
                        guard case .record = state else {
                            try updateStateMemberOfNonRecord(code, key, op, lhs, rhs, &state, places, ev)
                            break
                        }
                        let operand = places.read(rhs)
                        let name = code.keys[Int(key)]
                        // Logged before the update, which may fail: rolling back then puts back what is
                        // there anyway. A list or string extended in place is logged by its length.
                        if logging { undo.willUpdate(state, member: name, op, operand) }
                        try PathAssignment.updateMember(&state, name) { (value: inout Value) throws(SagaError) in
                            try ev.update(&value, op, operand)
                        }
                    case .addToSlot(let slot, let from):
                        try ev.add(places.read(from), to: &slots[Int(slot)])
                    case .step:
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                    case .stepAndJump(let target):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        pc = Int(target)
                    case .statement(let index):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        return .statement(Int(index))
                    case .effect(let index):
                        return .statement(Int(index))
                    case .take(let index):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        steps.take(code.takes + Int(index), code)
                        return .waiting
                    case .forkBlock(let site):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        if let exit = steps.fork(code, Int(site), past: &pc) { return exit }
                    case .cancelTask(let slot, let site):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        guard steps.cancel(slots + Int(slot), code, Int(site)) else { return .statement(Int(site)) }
                        if steps.yieldsToWork() { return .waiting }
                    case .joinTask(let slot, let into, let site):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        guard let value = steps.join(slots + Int(slot), code, Int(site)) else {
                            return .statement(Int(site))
                        }
                        if into >= 0 { slots[Int(into)] = value }
                        if steps.yieldsToWork() { return .waiting }
                    case .put(let index):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        // The action is read where the code keeps it, and copied only into the
                        // variable, if there is one.
                        let put = code.puts + Int(index)
                        guard
                            steps.put(put.pointee.action, into: put.pointee.slot, code, Int(put.pointee.site), past: pc)
                        else {
                            return .waiting
                        }
                        if put.pointee.slot >= 0 { slots[Int(put.pointee.slot)] = put.pointee.action }
                    case .putBuilt(let from, let index):
                        let put = code.puts + Int(index)
                        let action = places.read(from)
                        guard steps.put(action, into: put.pointee.slot, code, Int(put.pointee.site), past: pc) else {
                            return .waiting
                        }
                        if put.pointee.slot >= 0 { slots[Int(put.pointee.slot)] = action }
                    case .select(let key, let slot, let site):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        // Switched over where it is: `get()` is a call of its own where the
                        // optimizer does not inline it.
                        switch steps.select(key, code, Int(site)) {
                        case .success(let value): slots[Int(slot)] = value
                        case .failure(let error): throw error
                        }
                        if steps.yieldsToWork() { return .waiting }
                    case .selectState(let site):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        state = steps.selectState(code, Int(site))
                    case .call(let index):
                        // Held by the code for as long as it runs: read without a retain.
                        unowned(unsafe) let call = code.valueCalls[Int(index)]
                        if call.stepsFirst {
                            guard try steps.step() else {
                                pc &-= 1
                                return .paused
                            }
                        }
                        guard steps.mayCall() else {
                            // The statement runs over the arguments where they are.
                            pc = Int(call.returnAt) &+ 1
                            return .statement(Int(call.site))
                        }
                        if let value = call.returnsAtOnce {
                            pc &+= 1
                            steps.called(index, value, code, places)
                        }
                    case .callReturn(let index, let value):
                        steps.called(index, value, code, places)
                    case .forNext(let items, let slot, let exit):
                        // The items are moved out and back: bound where they lie, they would be
                        // retained and released at every turn.
                        let list = temporaries + Int(items)
                        guard case .int(let i) = list[1], case .list(let values) = list.move() else {
                            list.initialize(to: .null)
                            pc = Int(exit)
                            break
                        }
                        let next: Value? = i < values.count ? .some(values[i]) : .none
                        list.initialize(to: .list(values))
                        guard let next else {
                            pc = Int(exit)
                            break
                        }
                        try steps.forTurn()
                        slots[Int(slot)] = next
                        // The index is an integer: nothing to destroy.
                        (list + 1).initialize(to: .int(i &+ 1))
                    case .forEnd(let items):
                        temporaries[Int(items)] = .null
                        temporaries[Int(items) &+ 1] = .null
                    case .jumpUnless(let condition, let target):
                        if !(try Evaluator.truth(places.read(condition))) { pc = Int(target) }
                    case .jumpUnlessCompare(let op, let lhs, let rhs, let target):
                        if !(try places.compare(op, lhs, rhs, ev)) { pc = Int(target) }
                    case .jumpUnlessNull(let place, let isNull, let target):
                        if places.isNull(place) != isNull { pc = Int(target) }
                        // A temporary is read once: its value is let go of.
                        if case .temporary = place { _ = places.read(place) }
                    case .stepAndLoopIfCompare(let op, let lhs, let rhs, let target):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        let exit = pc
                        // At the body first: a test that fails does so at the line of the
                        // loop's own test, just before it.
                        pc = Int(target)
                        if !(try places.compare(op, lhs, rhs, ev)) { pc = exit }
                    case .jump(let target):
                        pc = Int(target)
                    case .tryBegin(let index) where !steps.isReducer:
                        // A saga's `try`s are its task's.
                        steps.beginTry(code.handlers[Int(index)])
                    case .tryEnd where !steps.isReducer:
                        steps.endTry()
                    default:
                        if let exit = try runRare(instruction, code, &state, places, ev, steps) {
                            return exit
                        }
                    }
                }
                return .end
            } catch {
                // A saga's code has no handlers here: the interpreter keeps them.
                guard let handler = tries.handle(error) else {
                    // The error leaves the reducer: its `finally` blocks are done with.
                    tries.pending.removeAll()
                    throw error
                }
                for t in Int(handler.clearsFrom)..<code.temporaryCount { temporaries[t] = .null }
                if handler.target >= 0 {
                    if case .slot(let s) = handler.place { slots[Int(s)] = error.value }
                    pc = Int(handler.target)
                } else {
                    pc = Int(handler.finally)
                }
            }
        }
    }

    /// Runs an instruction that most code runs seldom, or that costs much more than its
    /// dispatch anyway.
    ///
    /// These are out of the loop of ``run(_:_:_:action:_:_:pc:steps:)``, so that the loop has
    /// little to set up on entry. None of them moves the program counter.
    ///
    /// - Returns: where a saga's code leaves for the interpreter (the end of a `finally` block
    ///   that a way out ran, which goes on); otherwise `nil`.
    @inline(never)
    private func runRare(
        _ instruction: Code.Instruction, _ code: Code, _ state: inout Value, _ places: CodePlaces, _ ev: Evaluator,
        _ steps: CodeSteps
    ) throws(SagaError) -> CodeExit? {
        // A saga's `try`s are its task's (see ``CodeSteps/leaveFinally()``).
        let inSaga = !steps.isReducer
        switch instruction {
        case .index(let base, let index, let to):
            let b = places.read(base)
            places.write(try ev.subscriptValue(b, places.read(index)), to)
        case .checkDepth(let place):
            try Value.checkDepth(of: places[place].pointee)
        case .record(let index, let to):
            let fields = code.records[Int(index)]
            var entries: [Record.Entry] = []
            entries.reserveCapacity(fields.count)
            for field in fields {
                entries.append(Record.Entry(key: code.keys[Int(field.key)], value: places.read(field.value)))
            }
            places.write(.record(Record(unsortedEntries: entries)), to)
        case .builtin(let index, let to):
            let call = code.calls[Int(index)]
            var values: [Value] = []
            values.reserveCapacity(call.arguments.count)
            for argument in call.arguments { values.append(places.read(argument)) }
            places.write(try ev.checkLength(try call.builtin.apply(values, now: ev.now)), to)
        case .appendText(let key, .temporary(let t)):
            try appendText(code.keys[Int(key)], to: places.temporaries + Int(t))
        case .appendDisplay(let from, .temporary(let t)):
            try appendText(try places.read(from).checkedDisplayString(), to: places.temporaries + Int(t))
        case .checkLength(let place):
            _ = try ev.checkLength(places[place].pointee)
        case .setStatePath(let path, let from):
            let value = places.read(from)
            let keys = pathKeys(code, code.paths[Int(path)], places)
            try Self.refuseReservedKey(keys)
            if logging { undo.willAssign(state, through: keys) }
            try PathAssignment.set(&state, keys[...], value)
        case .updateStatePath(let path, let op, let lhs, let rhs):
            var current = places.read(lhs)
            let operand = places.read(rhs)
            let keys = pathKeys(code, code.paths[Int(path)], places)
            try Self.refuseReservedKey(keys)
            let logs = logging
            try PathAssignment.update(
                &state, through: keys, op, current: &current, operand: operand, ev,
                willExtend: { if logs { self.undo.willExtend($0, through: keys, count: $1) } },
                willAssign: { if logs { self.undo.willAssign($0, through: keys) } })
        case .updateSlotPath(let slot, let path, let op, let lhs, let rhs):
            var current = places.read(lhs)
            let operand = places.read(rhs)
            let keys = pathKeys(code, code.paths[Int(path)], places)
            try PathAssignment.update(
                &places.slots[Int(slot)], through: keys, op, current: &current, operand: operand, ev)
        case .setSlotPath(let slot, let path, let from):
            let value = places.read(from)
            let keys = pathKeys(code, code.paths[Int(path)], places)
            try PathAssignment.set(&places.slots[Int(slot)], keys[...], value)
        case .forStart(let sequence, let items):
            let list = try Interpreter.iterationItems(places.read(sequence))
            places.temporaries[Int(items)] = .list(list)
            places.temporaries[Int(items) &+ 1] = .int(0)
        case .cancelled(let to):
            places.write(.bool(ev.cancelled), to)
        case .clearTemporaries:
            for t in 0..<code.temporaryCount { places.temporaries[t] = .null }
        case .tryBegin(let index):
            // A reducer's (a saga's are taken in the loop).
            tries.handlers.append(code.handlers[Int(index)])
        case .tryEnd:
            _ = tries.handlers.popLast()
        case .finallyEnd:
            // The way out that ran the `finally` block goes on: a saga's, in the interpreter.
            if inSaga { return .finallyEnds }
            if let pending = tries.pending.popLast() { throw pending.error }
        case .finallyLeave:
            if inSaga { steps.leaveFinally() } else { _ = tries.pending.popLast() }
        case .fail(let key):
            throw SagaError.typeError(code.keys[Int(key)])
        case .selectEnd(let place):
            _ = places.read(place)
            state = .null
            if steps.yieldsToWork() { return .waiting }
        case .log(let place):
            // Past `Value.maxTextBytes`, the text fails as `str(x)` does.
            steps.log(try places.read(place).checkedDisplayString())
        case .returnValue(let place):
            return .returns(place)
        case .throwValue(let place):
            return .raises(place)
        case .append, .appendText, .appendDisplay:
            // Only ever to a temporary.
            break
        case .move, .stateMember, .member, .binary, .unary, .logical, .logicalRight, .unlessNull, .newList, .state,
            .setStateMember, .stateMemberUnlessRecord, .updateStateMember, .addToSlot, .step, .stepAndJump, .statement,
            .effect,
            .take, .put, .putBuilt, .select, .selectState, .call, .callReturn, .cancelTask, .joinTask, .forkBlock,
            .forNext, .forEnd, .jumpUnless, .jumpUnlessCompare, .jumpUnlessNull, .stepAndLoopIfCompare, .jump:
            // Run in the loop.
            break
        }
        return nil
    }

    /// `state.key = state.key op rhs` where the state is not a record: as the three
    /// instructions it stands for, `lhs` holding the member's value (its read failed, or it is
    /// not there).
    @inline(never)
    private func updateStateMemberOfNonRecord(
        _ code: Code, _ key: Int32, _ op: BinaryOperator, _ lhs: Code.Place, _ rhs: Code.Place, _ state: inout Value,
        _ places: CodePlaces, _ ev: Evaluator
    ) throws(SagaError) {
        let operand = places.read(rhs)
        let name = code.keys[Int(key)]
        let value = try ev.apply(op, places.read(lhs), operand)
        if logging { undo.willAssign(state, through: name) }
        try PathAssignment.setMember(&state, name, value)
    }

    /// The keys of an assignment's path, its indexes read from their places in order.
    private func pathKeys(_ code: Code, _ steps: [Code.PathStep], _ places: CodePlaces) -> [PathAssignment.Key] {
        var keys: [PathAssignment.Key] = []
        keys.reserveCapacity(steps.count)
        for step in steps {
            switch step {
            case .member(let key): keys.append(.member(code.keys[Int(key)]))
            case .index(let place): keys.append(.index(places.read(place)))
            }
        }
        return keys
    }

    /// Refuses a write through `state[k]` whose `k` is `"persistence"`: that key is kept by
    /// the persistence reducer (the checker refuses `state.persistence = …`).
    @inline(__always)
    private static func refuseReservedKey(_ keys: [PathAssignment.Key]) throws(SagaError) {
        guard case .index(.string(let key))? = keys.first, key == "persistence" else { return }
        throw SagaError.typeError(
            "'state.persistence' is kept by the persistence reducer; a reducer may read it, not assign it")
    }

    /// Appends `part` to the string a temporary holds, where it is; the text must not grow past
    /// the longest string.
    @inline(__always)
    private func appendText(_ part: String, to temporary: UnsafeMutablePointer<Value>) throws(SagaError) {
        guard case .string(var text) = temporary.move() else {
            temporary.initialize(to: .null)
            return
        }
        text += part
        temporary.initialize(to: .string(text))
        try Value.checkTextLength(text.utf8.count)
    }
}
