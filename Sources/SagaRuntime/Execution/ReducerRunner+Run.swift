import SagaCore
import SagaLanguage

extension ReducerRunner {
    /// Runs a reducer's code (see ``Code``) over the state and the reducer's variables;
    /// `temporaries` has room for the code's ``Code/temporaryCount``.
    ///
    /// Code that ``Code/readsOnlyTheAction`` reads `action` where it reads slot 0, and never
    /// touches `slots`; other code reads and writes its variables in `slots`, whose slot 0
    /// starts as the action (room for the reducer's slot count, all `.null` but slot 0).
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
        // Made at the first `try`: most code has none, and an empty array made at every run
        // would cost a call.
        var handlers: [Code.Handler]?
        let count = code.instructionCount
        let instructions = code.instructionBase
        let constants = code.constantBase
        let onlyTheAction = code.readsOnlyTheAction
        // Reads a place: a variable or a constant is copied, a temporary moved out (it is read
        // once), so that none keeps a reference past its statement.
        @inline(__always) func read(_ place: Code.Place) -> Value {
            switch place {
            case .slot(let s): return onlyTheAction ? action : slots[Int(s)]
            case .constant(let k): return constants[Int(k)]
            case .temporary(let t):
                let value = (temporaries + Int(t)).move()
                (temporaries + Int(t)).initialize(to: .null)
                return value
            }
        }
        // The integer a place holds, read where it is (no copy of a `Value`): an operator on two
        // integers is worked out at once. A temporary read so is then empty, as `read` leaves it.
        @inline(__always) func integer(_ place: Code.Place) -> Int? {
            switch place {
            case .slot(let s):
                if !onlyTheAction, case .int(let x) = slots[Int(s)] { return x }
            case .constant(let k):
                if case .int(let x) = constants[Int(k)] { return x }
            case .temporary(let t):
                if case .int(let x) = temporaries[Int(t)] { return x }
            }
            return nil
        }
        @inline(__always) func emptied(_ place: Code.Place) {
            // The temporary holds an integer, which needs no release.
            if case .temporary(let t) = place { (temporaries + Int(t)).initialize(to: .null) }
        }
        @inline(__always) func write(_ value: consuming Value, _ place: Code.Place) {
            switch place {
            case .slot(let s): slots[Int(s)] = value
            // A temporary is `.null` until written (it is left so when read), so nothing is
            // there to destroy: a plain assignment called the outlined destroy of a `Value`.
            case .temporary(let t): (temporaries + Int(t)).initialize(to: value)
            case .constant: break
            }
        }
        while true {
            do throws(SagaError) {
                while pc < count {
                    let instruction = instructions[pc]
                    pc &+= 1
                    switch instruction {
                    case .move(let from, let to):
                        write(read(from), to)
                    case .stateMember(let key, let to):
                        write(try Evaluator.member(code.keys[Int(key)], of: state), to)
                    case .member(.slot(let slot), let key, let to):
                        // A variable's member is read where the variable is: reading the variable
                        // out would copy it (a retain and a release of the action).
                        if onlyTheAction {
                            write(try Evaluator.member(code.keys[Int(key)], of: action), to)
                        } else {
                            write(try Evaluator.member(code.keys[Int(key)], of: slots[Int(slot)]), to)
                        }
                    case .member(let base, let key, let to):
                        write(try Evaluator.member(code.keys[Int(key)], of: read(base)), to)
                    case .binary(let op, let lhs, let rhs, let to):
                        if let x = integer(lhs), let y = integer(rhs), let value = Evaluator.integerBinary(op, x, y) {
                            emptied(lhs)
                            emptied(rhs)
                            write(value, to)
                            break
                        }
                        let a = read(lhs)
                        write(try ev.apply(op, a, read(rhs)), to)
                    case .index(let base, let index, let to):
                        let b = read(base)
                        write(try ev.subscriptValue(b, read(index)), to)
                    case .unary(let op, let operand, let to):
                        write(try Evaluator.apply(op, read(operand)), to)
                    case .logical(let op, let lhs, let to, let decided):
                        let a = try Evaluator.logicalOperand(op, read(lhs))
                        if op == .and ? !a : a {
                            write(.bool(a), to)
                            pc = Int(decided)
                        }
                    case .logicalRight(let op, let rhs, let to):
                        write(.bool(try Evaluator.logicalOperand(op, read(rhs))), to)
                    case .unlessNull(let lhs, let to, let target):
                        let l = read(lhs)
                        if case .null = l { break }
                        write(l, to)
                        pc = Int(target)
                    case .newList(let capacity, let to):
                        var items: [Value] = []
                        items.reserveCapacity(Int(capacity))
                        write(.list(items), to)
                    case .append(let item, .temporary(let t)):
                        let value = read(item)
                        try Value.checkDepth(of: value)
                        // Moved out and back, so that the list is appended to in place.
                        guard case .list(var items) = (temporaries + Int(t)).move() else {
                            (temporaries + Int(t)).initialize(to: .null)
                            break
                        }
                        items.append(value)
                        (temporaries + Int(t)).initialize(to: .list(items))
                    case .append:
                        break
                    case .checkDepth(let place):
                        switch place {
                        case .slot(let s): try Value.checkDepth(of: onlyTheAction ? action : slots[Int(s)])
                        case .temporary(let t): try Value.checkDepth(of: temporaries[Int(t)])
                        case .constant(let k): try Value.checkDepth(of: constants[Int(k)])
                        }
                    case .record(let index, let to):
                        let fields = code.records[Int(index)]
                        var entries: [Record.Entry] = []
                        entries.reserveCapacity(fields.count)
                        for field in fields {
                            entries.append(Record.Entry(key: code.keys[Int(field.key)], value: read(field.value)))
                        }
                        write(.record(Record(unsortedEntries: entries)), to)
                    case .state(let to):
                        write(state, to)
                    case .builtin(let index, let to):
                        let call = code.calls[Int(index)]
                        var values: [Value] = []
                        values.reserveCapacity(call.arguments.count)
                        for argument in call.arguments { values.append(read(argument)) }
                        write(try ev.checkLength(try call.builtin.apply(values, now: ev.now)), to)
                    case .appendText(let key, .temporary(let t)):
                        try appendText(code.keys[Int(key)], to: temporaries + Int(t))
                    case .appendDisplay(let from, .temporary(let t)):
                        var part = ""
                        read(from).writeDisplay(into: &part)
                        try appendText(part, to: temporaries + Int(t))
                    case .appendText, .appendDisplay:
                        break
                    case .checkLength(let place):
                        switch place {
                        case .slot(let s): _ = try ev.checkLength(onlyTheAction ? action : slots[Int(s)])
                        case .temporary(let t): _ = try ev.checkLength(temporaries[Int(t)])
                        case .constant(let k): _ = try ev.checkLength(constants[Int(k)])
                        }
                    case .setStateMember(let key, let from):
                        let value = read(from)
                        let name = code.keys[Int(key)]
                        if logging { undo.willAssign(state, through: name) }
                        try PathAssignment.setMember(&state, name, value)
                    case .stateMemberUnlessRecord(let key, let to):
                        if case .record = state { break }
                        write(try Evaluator.member(code.keys[Int(key)], of: state), to)
                    case .updateStateMember(let key, let op, let lhs, let rhs):
                        let operand = read(rhs)
                        let name = code.keys[Int(key)]
                        guard case .record = state else {
                            // As the three instructions it stands for: `lhs` holds the member's value.
                            let value = try ev.apply(op, read(lhs), operand)
                            if logging { undo.willAssign(state, through: name) }
                            try PathAssignment.setMember(&state, name, value)
                            break
                        }
                        // Logged before the update, which may fail: rolling back then puts back what is
                        // there anyway. A list or string extended in place is logged by its length.
                        if logging { undo.willUpdate(state, member: name, op, operand) }
                        try PathAssignment.updateMember(&state, name) { (value: inout Value) throws(SagaError) in
                            try ev.update(&value, op, operand)
                        }
                    case .setStatePath(let path, let from):
                        let value = read(from)
                        let keys = pathKeys(code, code.paths[Int(path)], read)
                        if logging { undo.willAssign(state, through: keys) }
                        try PathAssignment.set(&state, keys[...], value)
                    case .updateStatePath(let path, let op, let lhs, let rhs):
                        var current = read(lhs)
                        let operand = read(rhs)
                        let keys = pathKeys(code, code.paths[Int(path)], read)
                        let logs = logging
                        try PathAssignment.update(
                            &state, through: keys, op, current: &current, operand: operand, ev,
                            willExtend: { if logs { undo.willExtend($0, through: keys, count: $1) } },
                            willAssign: { if logs { undo.willAssign($0, through: keys) } })
                    case .updateSlotPath(let slot, let path, let op, let lhs, let rhs):
                        var current = read(lhs)
                        let operand = read(rhs)
                        let keys = pathKeys(code, code.paths[Int(path)], read)
                        try PathAssignment.update(
                            &slots[Int(slot)], through: keys, op, current: &current, operand: operand, ev)
                    case .setSlotPath(let slot, let path, let from):
                        let value = read(from)
                        let keys = pathKeys(code, code.paths[Int(path)], read)
                        try PathAssignment.set(&slots[Int(slot)], keys[...], value)
                    case .addToSlot(let slot, let from):
                        try ev.add(read(from), to: &slots[Int(slot)])
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
                    case .take(let index):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        let take = code.takes + Int(index)
                        steps.take(take.pointee.pattern, into: take.pointee.slot, code, Int(take.pointee.site))
                        return .waiting
                    case .put(let index):
                        guard try steps.step() else {
                            pc &-= 1
                            return .paused
                        }
                        let put = code.puts + Int(index)
                        guard
                            let processed = steps.put(
                                put.pointee.action, into: put.pointee.slot, code, Int(put.pointee.site))
                        else {
                            return .waiting
                        }
                        if put.pointee.slot >= 0 { slots[Int(put.pointee.slot)] = processed }
                    case .callValue(let index):
                        // Held by the code for as long as it runs: read without a retain.
                        unowned(unsafe) let call = code.valueCalls[Int(index)]
                        if call.stepsFirst {
                            guard try steps.step() else {
                                pc &-= 1
                                return .paused
                            }
                        }
                        guard
                            let value = steps.callValue(
                                Int(call.function), call.argumentCount, ev, { read(call.argumentBase[$0]) })
                        else { return .statement(Int(call.site)) }
                        write(value, call.target)
                    case .forStart(let sequence, let items):
                        let list = try Interpreter.iterationItems(read(sequence))
                        temporaries[Int(items)] = .list(list)
                        temporaries[Int(items) &+ 1] = .int(0)
                    case .forNext(let items, let slot, let exit):
                        guard case .list(let list) = temporaries[Int(items)],
                            case .int(let i) = temporaries[Int(items) &+ 1],
                            i < list.count
                        else {
                            pc = Int(exit)
                            break
                        }
                        try steps.forTurn()
                        slots[Int(slot)] = list[i]
                        temporaries[Int(items) &+ 1] = .int(i &+ 1)
                    case .forEnd(let items):
                        temporaries[Int(items)] = .null
                        temporaries[Int(items) &+ 1] = .null
                    case .clearTemporaries:
                        for t in 0..<code.temporaryCount { temporaries[t] = .null }
                    case .jumpUnless(let condition, let target):
                        if !(try Evaluator.truth(read(condition))) { pc = Int(target) }
                    case .jumpUnlessCompare(let op, let lhs, let rhs, let target):
                        let holds: Bool
                        if let x = integer(lhs), let y = integer(rhs),
                            case .bool(let b)? = Evaluator.integerBinary(op, x, y)
                        {
                            emptied(lhs)
                            emptied(rhs)
                            holds = b
                        } else {
                            let a = read(lhs)
                            holds = try Evaluator.truth(try ev.apply(op, a, read(rhs)))
                        }
                        if !holds { pc = Int(target) }
                    case .jump(let target):
                        pc = Int(target)
                    case .pushHandler(let index):
                        // Taken out first, so that the list is appended to in place.
                        var list = handlers ?? []
                        handlers = nil
                        list.append(code.handlers[Int(index)])
                        handlers = list
                    case .popHandler:
                        _ = handlers?.popLast()
                    case .rethrow(let place):
                        throw SagaError(value: read(place))
                    case .fail(let key):
                        throw SagaError.typeError(code.keys[Int(key)])
                    }
                }
                return .end
            } catch {
                guard let handler = handlers?.popLast() else { throw error }
                for t in Int(handler.clearsFrom)..<code.temporaryCount { temporaries[t] = .null }
                switch handler.place {
                case .slot(let s): slots[Int(s)] = error.value
                case .temporary(let t): temporaries[Int(t)] = error.value
                case .constant: break
                }
                pc = Int(handler.target)
            }
        }
    }

    /// The keys of an assignment's path, its indexes read from their places in order.
    private func pathKeys(
        _ code: Code, _ steps: [Code.PathStep], _ read: (Code.Place) -> Value
    ) -> [PathAssignment.Key] {
        var keys: [PathAssignment.Key] = []
        keys.reserveCapacity(steps.count)
        for step in steps {
            switch step {
            case .member(let key): keys.append(.member(code.keys[Int(key)]))
            case .index(let place): keys.append(.index(read(place)))
            }
        }
        return keys
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
