import SagaCore
import SagaLanguage

/// `state.P = state.P op x` through a path of more than one step, updated where the value lies.
extension PathAssignment {
    /// The parts of `state.P = state.P op rhs` (an assignment through the state whose value
    /// applies an operator that evaluates both sides, so not `&&`, `||` or `??`, to a read of
    /// the place it assigns), or nil for any other assignment.
    static func selfUpdate(_ lv: LValue, _ value: Expr) -> (op: BinaryOperator, read: Expr, rhs: Expr)? {
        guard case .state = lv.root, !lv.path.isEmpty, case .binary(let op, let read, let rhs, _) = value,
            op != .and, op != .or, op != .coalesce, isRead(read, of: lv.path[...])
        else { return nil }
        return (op, read, rhs)
    }

    /// Whether `expr` reads the same place as `path` from `state` (`state.l.x` for the path
    /// `.l.x`, `state.byChannel[a.ch]` for `.byChannel[a.ch]`), with index expressions so
    /// simple (literals, variables and their members) that reading them again gives the same
    /// keys and no error.
    private static func isRead(_ expr: Expr, of path: ArraySlice<LValue.Step>) -> Bool {
        guard let last = path.last else {
            if case .state = expr { return true }
            return false
        }
        switch (last, expr) {
        case (.member(let key), .member(let base, let read, _)):
            return Record.sameKey(key, read) && isRead(base, of: path.dropLast())
        case (.index(let index), .index(let base, let read, _)):
            return isSame(index, read) && isRead(base, of: path.dropLast())
        default:
            return false
        }
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
