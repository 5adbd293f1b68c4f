import SagaCore
import SagaLanguage

/// `state.P = state.P op x` and `x.P = x.P op y` through a path, updated where the value lies.
extension PathAssignment {
    /// The parts of `R.P = R.P op rhs` (an assignment through a path of the state or of a
    /// variable, whose value applies an operator that evaluates both sides, so not `&&`, `||`
    /// or `??`, to a read of the place it assigns), or nil for any other assignment.
    static func selfUpdate(_ lv: LValue, _ value: Expr) -> (op: BinaryOperator, read: Expr, rhs: Expr)? {
        guard !lv.path.isEmpty, case .binary(let op, let read, let rhs, _) = value,
            op != .and, op != .or, op != .coalesce, isRead(read, of: lv.path[...], from: lv.root)
        else { return nil }
        return (op, read, rhs)
    }

    /// Whether `expr` reads the same place as `path` from `root` (`state.l.x` for the path
    /// `.l.x` of the state, `r.byChannel[a.ch]` for `.byChannel[a.ch]` of `r`), with index
    /// expressions so simple (literals, variables and their members) that reading them again
    /// gives the same keys and no error.
    private static func isRead(_ expr: Expr, of path: ArraySlice<LValue.Step>, from root: LValue.Root) -> Bool {
        guard let last = path.last else {
            switch (root, expr) {
            case (.state, .state): return true
            case (.variable(let v), .variable(let w)): return v.slot >= 0 && v.slot == w.slot
            default: return false
            }
        }
        switch (last, expr) {
        case (.member(let key), .member(let base, let read, _)):
            return Record.sameKey(key, read) && isRead(base, of: path.dropLast(), from: root)
        case (.index(let index), .index(let base, let read, _)):
            return isSame(index, read) && isRead(base, of: path.dropLast(), from: root)
        default:
            return false
        }
    }

    /// `R.P = R.P op operand` for the path `keys` of `root`, `current` holding what reading
    /// `R.P` gave, with the values and errors of computing `current op operand` and storing it
    /// through the path; `willExtend` and `willAssign` are told before `root` changes (a
    /// reducer's undo log).
    ///
    /// A list or string that `+` extends is extended where it lies: `current` lets go of it
    /// first, so that the root's is the only reference. Building a new one would make n
    /// appends through a path take time in n².
    static func update(
        _ root: inout Value, through keys: [Key], _ op: BinaryOperator, current: inout Value, operand: Value,
        _ ev: Evaluator, willExtend: (Value, Int) -> Void = { _, _ in }, willAssign: (Value) -> Void = { _ in }
    ) throws(SagaError) {
        if case .add = op, let length = extensionLength(current, by: operand) {
            // The checks of `current + operand` stored at the path, in their order: the
            // length (in `update`), then the depth at the path's level (a list's items are as
            // deep as the deeper of the two lists' items; the stored one passed it already).
            if case .list(let more) = operand {
                try Value.checkListCount(length + more.count)
                try ev.checkLength(count: length + more.count)
                try Value.checkDepth(of: operand, at: keys.count)
            }
            // Told first: if the path is not all there after all (it is, where reading it
            // gave a list or string), the general way below tells what it changes.
            willExtend(root, length)
            // One walk down the path, which lets go of `current` only at its end, where the
            // root's value is about to be extended.
            let found = try update(&root, keys[...]) { (value: inout Value) throws(SagaError) in
                current = .null
                try ev.update(&value, op, operand)
            }
            if found { return }
        }
        let value = try ev.apply(op, current, operand)
        current = .null
        willAssign(root)
        try set(&root, keys[...], value)
    }

    /// The length of a list (items) or a string (UTF-8 bytes) that `+ operand` extends, or nil.
    private static func extensionLength(_ value: Value, by operand: Value) -> Int? {
        switch value {
        case .list(let items): if case .list = operand { return items.count }
        case .string(let text): if case .string = operand { return text.utf8.count }
        default: break
        }
        return nil
    }

    /// Whether two index expressions are the same literal, variable or member of one.
    private static func isSame(_ a: Expr, _ b: Expr) -> Bool {
        switch (a, b) {
        case (.literal(let x, _), .literal(let y, _)): return x == y
        case (.variable(let x), .variable(let y)): return x.slot >= 0 && x.slot == y.slot
        case (.member(let x, let k, _), .member(let y, let l, _)): return Record.sameKey(k, l) && isSame(x, y)
        default: return false
        }
    }

    /// Runs `body` on the value at the end of `path` inside `root`, editing each record and
    /// list on the way in place, and tells whether every step was there: where one is not,
    /// nothing is changed and `body` does not run.
    ///
    /// When `body` throws, `root` is as it was.
    @discardableResult
    static func update(
        _ root: inout Value, _ path: ArraySlice<Key>, _ body: (inout Value) throws(SagaError) -> Void
    ) throws(SagaError) -> Bool {
        guard let first = path.first else {
            try body(&root)
            return true
        }
        let rest = path.dropFirst()
        switch StateUndoLog.step(first, in: root) {
        case .key(let key)?:
            guard case .record(var r) = root, r.withValue(forKey: key, { _ in true }) != nil else { return false }
            root = .null  // drop our reference so the record is edited in place
            var found = false
            do {
                try r.modifyValue(forKey: key) { (child: inout Value) throws(SagaError) in
                    found = try update(&child, rest, body)
                }
            } catch {
                root = .record(r)
                throw error
            }
            root = .record(r)
            return found
        case .position(let i)?:
            guard case .list(var items) = root, i >= 0, i < items.count else { return false }
            root = .null  // drop our reference so the list is edited in place
            let found: Bool
            do {
                found = try update(&items[i], rest, body)
            } catch {
                root = .list(items)
                throw error
            }
            root = .list(items)
            return found
        case nil:
            return false
        }
    }
}
