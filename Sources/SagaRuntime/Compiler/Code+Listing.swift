import SagaCore
import SagaLanguage

extension Code {
    /// The instructions as text, one line each: the instruction's index, where it comes from
    /// (`line:column`) and what it does, with each source line it starts shown above it.
    ///
    /// Places print as `name` (a variable, named by `slotNames` where it has a name, `sN`
    /// otherwise), `tN` (a temporary) and constants as literals; jumps name their target's
    /// index; a call names its function by `functionNames` where it has a name.
    func listing(
        slotNames: [String], files: [SourceFile], indent: String = "  ", functionNames: [String] = []
    ) -> [String] {
        var listing = ListingLines(files: files, indent: indent, count: instructionCount)
        for index in 0..<instructionCount {
            listing.append(index, at: lines[index], describe(instructionBase[index], slotNames, functionNames))
        }
        return listing.lines
    }

    /// One instruction as text.
    private func describe(_ instruction: Instruction, _ names: [String], _ functionNames: [String]) -> String {
        func p(_ place: Place) -> String { describe(place, names) }
        let dump = ASTDump(functionNames: functionNames)
        func key(_ k: Int32) -> String { keys.indices.contains(Int(k)) ? keys[Int(k)] : "?" }
        func path(_ index: Int32) -> String {
            guard paths.indices.contains(Int(index)) else { return "?" }
            return paths[Int(index)].map { step in
                switch step {
                case .member(let k): return "." + key(k)
                case .index(let place): return "[\(p(place))]"
                }
            }.joined()
        }
        switch instruction {
        case .move(let from, let to): return "\(p(to)) = \(p(from))"
        case .stateMember(let k, let to): return "\(p(to)) = state.\(key(k))"
        case .state(let to): return "\(p(to)) = state"
        case .member(let base, let k, let to): return "\(p(to)) = \(p(base)).\(key(k))"
        case .index(let base, let index, let to): return "\(p(to)) = \(p(base))[\(p(index))]"
        case .binary(let op, let lhs, let rhs, let to): return "\(p(to)) = \(p(lhs)) \(op.rawValue) \(p(rhs))"
        case .unary(let op, let operand, let to): return "\(p(to)) = \(op.rawValue)\(p(operand))"
        case .logical(let op, let lhs, let to, let decided):
            return "\(p(to)) = \(p(lhs)) \(op.rawValue) …; decided: goto \(decided)"
        case .logicalRight(_, let rhs, let to): return "\(p(to)) = bool \(p(rhs))"
        case .unlessNull(let lhs, let to, let target): return "if \(p(lhs)) != null: \(p(to)) = it; goto \(target)"
        case .newList(let capacity, let to): return "\(p(to)) = [] (room for \(capacity))"
        case .append(let item, let list): return "append \(p(item)) to \(p(list))"
        case .checkDepth(let place): return "check depth of \(p(place))"
        case .record(let index, let to):
            guard records.indices.contains(Int(index)) else { return "\(p(to)) = {?}" }
            let fields = records[Int(index)].map { "\(key($0.key)): \(p($0.value))" }
            return "\(p(to)) = {\(fields.joined(separator: ", "))}"
        case .builtin(let index, let to):
            guard calls.indices.contains(Int(index)) else { return "\(p(to)) = ?()" }
            let call = calls[Int(index)]
            return "\(p(to)) = \(call.builtin.rawValue)(\(call.arguments.map(p).joined(separator: ", ")))"
        case .appendText(let k, let to): return "append \(Value.string(key(k)).canonicalJSON) to \(p(to))"
        case .appendDisplay(let from, let to): return "append text of \(p(from)) to \(p(to))"
        case .checkLength(let place): return "check length of \(p(place))"
        case .setStateMember(let k, let from): return "state.\(key(k)) = \(p(from))"
        case .stateMemberUnlessRecord(let k, let to): return "\(p(to)) = state.\(key(k)) unless state is a record"
        case .updateStateMember(let k, let op, let lhs, let rhs):
            return "state.\(key(k)) \(op.rawValue)= \(p(rhs)) in place (else \(p(lhs)) \(op.rawValue) \(p(rhs)))"
        case .setStatePath(let index, let from): return "state\(path(index)) = \(p(from))"
        case .updateStatePath(let index, let op, let lhs, let rhs):
            return "state\(path(index)) \(op.rawValue)= \(p(rhs)) in place (else \(p(lhs)) \(op.rawValue) \(p(rhs)))"
        case .setSlotPath(let slot, let index, let from): return "\(p(.slot(slot)))\(path(index)) = \(p(from))"
        case .updateSlotPath(let slot, let index, let op, let lhs, let rhs):
            return
                "\(p(.slot(slot)))\(path(index)) \(op.rawValue)= \(p(rhs)) in place (else \(p(lhs)) \(op.rawValue) \(p(rhs)))"
        case .addToSlot(let slot, let from): return "\(p(.slot(slot))) += \(p(from)) in place"
        case .cancelled(let to): return "\(p(to)) = cancelled"
        case .step: return "step"
        case .stepAndJump(let target): return "step, goto \(target)"
        case .call(let i):
            guard valueCalls.indices.contains(Int(i)) else { return "call ?" }
            let call = valueCalls[Int(i)]
            let arguments = (0..<call.argumentCount).map { p(call.argumentBase[$0]) }.joined(separator: ", ")
            let statement =
                sites.indices.contains(Int(call.site)) ? dump.render(sites[Int(call.site)].statement) : "?"
            let function =
                functionNames.indices.contains(Int(call.function))
                ? functionNames[Int(call.function)] : "function \(call.function)"
            return (call.stepsFirst ? "step; " : "")
                + "call \(function)(\(arguments)), or run \(statement) where it stands"
        case .callReturn(let i, let value):
            guard valueCalls.indices.contains(Int(i)) else { return "return ?" }
            let call = valueCalls[Int(i)]
            return "return \(p(value)) into \(p(call.target))"
        case .take(let i):
            let take = takes[Int(i)]
            let pattern: String
            if case .exact(let type) = take.pattern {
                pattern = Value.string(type).canonicalJSON
            } else {
                pattern = "?"
            }
            return "step; take \(pattern)" + (take.slot >= 0 ? " into \(p(.slot(take.slot)))" : "")
        case .put(let i):
            let put = puts[Int(i)]
            return "step; put \(put.action.canonicalJSON)" + (put.slot >= 0 ? " into \(p(.slot(put.slot)))" : "")
        case .putBuilt(let action, let i):
            let put = puts[Int(i)]
            return "put \(p(action))" + (put.slot >= 0 ? " into \(p(.slot(put.slot)))" : "")
        case .statement(let i):
            let statement = sites.indices.contains(Int(i)) ? dump.render(sites[Int(i)].statement) : "?"
            return "step; run \(statement) where it stands"
        case .forkBlock(let i):
            let statement = sites.indices.contains(Int(i)) ? dump.render(sites[Int(i)].statement) : "?"
            return "step; start \(statement) in the code"
        case .cancelTask(let slot, _):
            return "step; cancel \(p(.slot(slot)))"
        case .joinTask(let slot, let into, _):
            return "step; join \(p(.slot(slot)))" + (into >= 0 ? " into \(p(.slot(into)))" : "")
        case .effect(let i):
            guard sites.indices.contains(Int(i)) else { return "?" }
            let operands = sites[Int(i)].operands.map(p).joined(separator: ", ")
            return "run \(dump.render(sites[Int(i)].statement)) where it stands, over \(operands)"
        case .select(let k, let slot, _):
            return "step; select " + (k < 0 ? "state" : "state.\(key(k))") + " into \(p(.slot(slot)))"
        case .selectState: return "step; select: state = the store's"
        case .selectEnd(.temporary(let t)): return "end select: drop t\(t) (its value goes nowhere), let go of state"
        case .selectEnd: return "end select: let go of state"
        case .forStart(let sequence, let items): return "t\(items) = items of \(p(sequence)); t\(items + 1) = 0"
        case .forNext(let items, let slot, let exit):
            return "\(p(.slot(slot))) = next of t\(items), or goto \(exit)"
        case .forEnd(let items): return "clear t\(items), t\(items + 1)"
        case .clearTemporaries: return "clear temporaries"
        case .jumpUnless(let condition, let target): return "unless \(p(condition)): goto \(target)"
        case .jumpUnlessCompare(let op, let lhs, let rhs, let target):
            return "unless \(p(lhs)) \(op.rawValue) \(p(rhs)): goto \(target)"
        case .jumpUnlessNull(let place, let isNull, let target):
            return "unless \(p(place)) \(isNull ? "==" : "!=") null: goto \(target)"
        case .stepAndLoopIfCompare(let op, let lhs, let rhs, let target):
            return "step; if \(p(lhs)) \(op.rawValue) \(p(rhs)): goto \(target)"
        case .jump(let target): return "goto \(target)"
        case .tryBegin(let index):
            guard handlers.indices.contains(Int(index)) else { return "try" }
            let handler = handlers[Int(index)]
            if handler.compensates { return "transaction: on failing run its compensations" }
            var parts: [String] = []
            if handler.target >= 0 { parts.append("on error \(p(handler.place)) = error; goto \(handler.target)") }
            if handler.finally >= 0 { parts.append("on leaving goto \(handler.finally)") }
            return "try: " + parts.joined(separator: "; ")
        case .tryEnd: return "end try or transaction"
        case .finallyEnd: return "end finally: go on leaving"
        case .finallyLeave: return "leave finally: drop the way out"
        case .fail(let k): return "fail: \(key(k))"
        case .log(let place): return "log \(p(place))"
        case .returnValue(let place): return "return \(p(place))"
        case .throwValue(let place): return "throw \(p(place))"
        }
    }

    /// A place as text.
    private func describe(_ place: Place, _ names: [String]) -> String {
        switch place {
        case .slot(let s): return names.indices.contains(Int(s)) && !names[Int(s)].isEmpty ? names[Int(s)] : "s\(s)"
        case .temporary(let t): return "t\(t)"
        case .constant(let k): return k >= 0 && Int(k) < constantCount ? constantBase[Int(k)].canonicalJSON : "?"
        case .local(let l): return "l\(l)"
        }
    }
}
