import SagaCore
import SagaLanguage

extension Compiler {
    /// Where the value of `e` will be: a variable or a constant as they are, anything else
    /// computed into a new temporary.
    mutating func place(of e: Expr) -> Code.Place {
        switch e {
        case .literal(let v, _):
            return addConstant(v)
        case .variable(let v) where parameterPlaces != nil:
            return parameterPlace(v.slot)
        case .variable(let v) where isOwnSlot(v.slot):
            return .slot(Int32(v.slot))
        default:
            let t = newTemporary()
            compile(e, into: t)
            return t
        }
    }

    /// Where a called function's variable is (see ``parameterPlaces``): its argument's
    /// place, or null for one the call does not pass.
    private mutating func parameterPlace(_ slot: Int) -> Code.Place {
        guard let places = parameterPlaces, places.indices.contains(slot) else { return addConstant(.null) }
        return places[slot]
    }

    /// Instructions that leave the value of `e` in `target`.
    mutating func compile(_ e: Expr, into target: Code.Place) {
        switch e {
        case .literal:
            emit(.move(place(of: e), into: target))
        case .variable(let v) where parameterPlaces != nil:
            emit(.move(parameterPlace(v.slot), into: target))
        case .variable(let v):
            guard isOwnSlot(v.slot) else { return unknownVariable(v.name) }
            emit(.move(.slot(Int32(v.slot)), into: target))
        case .it where itIsState:
            emit(.state(into: target))
        case .member(.it, let key, _) where itIsState:
            emit(.stateMember(key: keyIndex(key), into: target))
        case .state where forSaga && !selecting, .member(.state, _, _) where forSaga && !selecting:
            // Read only by `select` (which the interpreter runs) and by reducers.
            fail("'state' can only be read inside select or a reducer")
        case .state:
            emit(.state(into: target))
        case .it:
            // Outside a `take … where` condition, `it` is null.
            emit(.move(addConstant(.null), into: target))
        case .cancelled:
            emit(.cancelled(into: target))
        case .member(.state, let key, _):
            emit(.stateMember(key: keyIndex(key), into: target))
        case .member(let base, let key, _):
            let b = place(of: base)
            emit(.member(b, key: keyIndex(key), into: target))
        case .index(let base, let index, _):
            let b = place(of: base)
            let i = place(of: index)
            emit(.index(b, i, into: target))
        case .binary(let op, let lhs, let rhs, _) where op == .and || op == .or:
            let l = place(of: lhs)
            let test = instructions.count
            emit(.logical(op, l, into: target, decided: -1))
            let r = place(of: rhs)
            emit(.logicalRight(op, r, into: target))
            patch(test, .logical(op, l, into: target, decided: here))
        case .binary(.coalesce, let lhs, let rhs, _):
            let l = place(of: lhs)
            let test = instructions.count
            emit(.unlessNull(l, into: target, to: -1))
            compile(rhs, into: target)
            patch(test, .unlessNull(l, into: target, to: here))
        case .binary(let op, let lhs, let rhs, _):
            let l = place(of: lhs)
            let r = place(of: rhs)
            emit(.binary(op, l, r, into: target))
        case .unary(let op, let operand, _):
            let v = place(of: operand)
            emit(.unary(op, v, into: target))
        case .record(let fields, _):
            var entries: [(key: Int32, value: Code.Place)] = []
            for field in fields {
                let value = place(of: field.value)
                if !isScalarConstant(value) { emit(.checkDepth(value)) }
                entries.append((keyIndex(field.key), value))
            }
            emit(.record(addRecord(entries), into: target))
        case .list(let items, _):
            // Built in a temporary of its own, then moved: built in a variable, `x = [x]`
            // would read the list it is building. A temporary target is read by nothing else.
            let list = isTemporary(target) ? target : newTemporary()
            emit(.newList(capacity: Int32(items.count), into: list))
            for item in items { emit(.append(place(of: item), toList: list)) }
            if list != target { emit(.move(list, into: target)) }
        case .interpolation(let parts, _):
            // Built part by part in a temporary, each part's text bounded as it is added (in a
            // temporary of its own when the target is a variable, as a list is).
            let text = isTemporary(target) ? target : newTemporary()
            emit(.move(addConstant(.string("")), into: text))
            for part in parts {
                switch part {
                case .text(let t): emit(.appendText(key: keyIndex(t), to: text))
                case .expr(let e): emit(.appendDisplay(place(of: e), to: text))
                }
            }
            emit(.checkLength(text))
            if text != target { emit(.move(text, into: target)) }
        case .builtin(let name, let args, _):
            guard let builtin = Builtin(rawValue: name) else { return fail("unknown function '\(name)'") }
            var arguments: [Code.Place] = []
            for a in args { arguments.append(place(of: a)) }
            emit(.builtin(addCall(builtin, arguments), into: target))
        }
    }

    private func isTemporary(_ place: Code.Place) -> Bool {
        if case .temporary = place { return true }
        return false
    }

    /// Whether the place is a constant that is neither a list nor a record: nested in a
    /// record, it can make it no deeper than one level.
    private func isScalarConstant(_ place: Code.Place) -> Bool {
        guard case .constant(let c) = place else { return false }
        switch constants[Int(c)] {
        case .list, .record: return false
        default: return true
        }
    }

    /// Points an instruction emitted before at what is now known.
    mutating func patch(_ index: Int, _ instruction: Code.Instruction) {
        instructions[index] = instruction
    }
}
