import SagaCore
import SagaLanguage

/// The tasks blocked on `take` of the store's actions, kept so that an action meets only the
/// takers it may wake.
///
/// A taker of one exact type whose `where` condition compares a path of the action with a
/// value fixed when the take began (`take "saved" where it.element.id == id`, see
/// ``keyedSides(of:)``) waits under that value, with the other takers of its type and path: an
/// action meets only the takers under the value its own path has, however many others wait.
/// Every other taker waits in one list that every action meets.
///
/// An action wakes the takers it matches in the order they began to wait, wherever they are
/// kept. Entries of tasks that stopped waiting (cancelled, or woken by another effect of a
/// `race`) are dropped when an action meets them, and by a sweep too, once the list they are
/// in (or, for those kept under a value, all of these) has doubled since the last one: a run
/// that cancels takes while no action comes holds no more than twice its live takers.
struct TakerIndex {
    /// Takers of one type whose conditions compare the same path of the action
    /// (`it.element.id`) with a fixed value, by that value.
    ///
    /// Its fields are unchecked for exclusivity, as the interpreter's are: only the scheduler
    /// reaches them, never with overlapping accesses.
    final class KeyedTakers {
        /// The type their pattern names.
        let type: String
        /// The path, as the first taker's condition spells it, and as code that reads it from
        /// an action (see ``TakeCondition``).
        let path: Expr
        let pathCode: Code
        /// The takers under each value, each list in the order they began to wait.
        @exclusivity(unchecked) var byValue: [Value: [Taker]] = [:]

        init(type: String, path: Expr, pathCode: Code) {
            self.type = type
            self.path = path
            self.pathCode = pathCode
        }
    }

    /// The takers not kept under a value, in the order they began to wait: every action meets
    /// them (see ``Interpreter``'s `actionReachesTakers`).
    var plain: [Taker] = []
    /// The takers kept under a value, one group per type and path.
    private var keyed: [KeyedTakers] = []
    /// Takers added under a value since the last sweep, and those it kept.
    private var keyedCount = 0
    /// The count of those at which the stale ones are swept.
    private var sweepAt = 1024

    /// Whether no entry is held.
    var isEmpty: Bool { plain.isEmpty && keyed.isEmpty }

    /// Whether any taker is kept under a value.
    var hasKeyed: Bool { !keyed.isEmpty }

    /// The length of ``plain`` at which its stale entries are swept.
    private var plainSweepAt = 1024

    /// Adds a taker that every action meets.
    @inline(__always)
    mutating func add(_ taker: consuming Taker) {
        if plain.count >= plainSweepAt { sweepPlain() }
        plain.append(taker)
    }

    /// Drops the stale entries of ``plain``, keeping the order of the others.
    @inline(never)
    private mutating func sweepPlain() {
        plain.removeAll { !$0.isLive }
        plainSweepAt = Swift.max(1024, plain.count * 2)
    }

    /// Adds a taker of `type` whose condition compares `path` of the action (which
    /// `pathCode` reads) with `value`.
    mutating func add(_ taker: consuming Taker, type: String, path: Expr, pathCode: Code, value: Value) {
        keyedCount &+= 1
        if keyedCount > sweepAt { sweep() }
        let group: KeyedTakers
        if let existing = keyed.first(where: { Record.sameKey($0.type, type) && Self.samePath($0.path, path) }) {
            group = existing
        } else {
            group = KeyedTakers(type: type, path: path, pathCode: pathCode)
            keyed.append(group)
        }
        group.byValue[value, default: []].append(taker)
    }

    /// Meets an action with every list of takers it may wake: the plain takers, and those of
    /// its type kept under the value its path has (or, where reading the path fails, all of
    /// that path: their conditions then fail as they read it).
    ///
    /// - Parameters:
    ///   - type: the action's type, if it has one.
    ///   - pathValue: the value a path's code reads from the action, or `nil` if reading it
    ///     fails.
    ///   - verdict: what the action does to a live taker: `nil` if it goes on waiting.
    ///   - woken: called for each taker that stops waiting, in its list's order.
    /// - Returns: how many lists woke a taker (with more than one, the order of waiting across
    ///   them is the caller's to restore).
    mutating func meetAll(
        type: String?, pathValue: (Code) -> Value?, verdict: (borrowing Taker) -> Resumption?,
        woken: (borrowing Taker, Resumption) -> Void
    ) -> Int {
        var lists = Self.meet(&plain, verdict, woken) ? 1 : 0
        guard let type else { return lists }
        for group in keyed where Record.sameKey(group.type, type) {
            if let value = pathValue(group.pathCode) {
                guard let index = group.byValue.index(forKey: value) else { continue }
                if Self.meet(&group.byValue.values[index], verdict, woken) { lists &+= 1 }
                if group.byValue.values[index].isEmpty { group.byValue.remove(at: index) }
            } else {
                var index = group.byValue.startIndex
                while index != group.byValue.endIndex {
                    if Self.meet(&group.byValue.values[index], verdict, woken) { lists &+= 1 }
                    group.byValue.formIndex(after: &index)
                }
                group.byValue = group.byValue.filter { !$0.value.isEmpty }
            }
        }
        keyed.removeAll { $0.byValue.isEmpty }
        return lists
    }

    /// Meets the takers of one list: the stale and the woken leave it, the rest keep their
    /// order, moved down over the ones that left; `woken` is called for each woken, in order.
    ///
    /// - Returns: whether any was woken.
    private static func meet(
        _ takers: inout [Taker], _ verdict: (borrowing Taker) -> Resumption?,
        _ woken: (borrowing Taker, Resumption) -> Void
    ) -> Bool {
        var kept = 0
        var any = false
        for i in takers.indices {
            guard takers[i].isLive else { continue }
            if let resumption = verdict(takers[i]) {
                woken(takers[i], resumption)
                any = true
                continue
            }
            if kept != i { takers.swapAt(kept, i) }
            kept &+= 1
        }
        takers.removeLast(takers.count - kept)
        return any
    }

    /// Empties the index.
    ///
    /// - Returns: the tasks still waiting, in the order they began to wait.
    mutating func removeAll() -> [SagaTask] {
        var live = plain.filter(\.isLive)
        for group in keyed {
            for list in group.byValue.values { live += list.filter(\.isLive) }
        }
        self = TakerIndex()
        return live.map(\.task).sorted { $0.waitSequence < $1.waitSequence }
    }

    /// Every task held, live or stale (for the teardown of a run).
    var tasks: [SagaTask] {
        var tasks = plain.map(\.task)
        for group in keyed {
            for list in group.byValue.values { tasks += list.map(\.task) }
        }
        return tasks
    }

    /// Drops the stale entries kept under a value.
    private mutating func sweep() {
        var total = 0
        for group in keyed {
            group.byValue = group.byValue.compactMapValues { list in
                let live = list.filter(\.isLive)
                total += live.count
                return live.isEmpty ? nil : live
            }
        }
        keyed.removeAll { $0.byValue.isEmpty }
        keyedCount = total
        sweepAt = Swift.max(1024, total * 2)
    }
}

extension TakerIndex {
    /// The two sides of a `where` condition that an index can key: a path of the action (`it`,
    /// then `.name` and `[literal]` steps) and an expression whose value is fixed while the
    /// task waits (it reads no `it`, `state`, `cancelled` nor built-in), compared with `==`
    /// in either order, alone or as the left operand of `&&` (whose right side is then not
    /// evaluated unless the comparison holds).
    ///
    /// - Returns: `nil` for any other condition.
    static func keyedSides(of condition: Expr) -> (path: Expr, fixed: Expr)? {
        switch condition {
        case .binary(.equal, let lhs, let rhs, _):
            if isActionPath(lhs), isFixed(rhs) { return (lhs, rhs) }
            if isActionPath(rhs), isFixed(lhs) { return (rhs, lhs) }
            return nil
        case .binary(.and, let lhs, _, _):
            return keyedSides(of: lhs)
        default:
            return nil
        }
    }

    /// Whether `e` is `it` followed by `.name` and `[literal]` steps.
    private static func isActionPath(_ e: Expr) -> Bool {
        switch e {
        case .it: return true
        case .member(let base, _, _): return isActionPath(base)
        case .index(let base, .literal, _): return isActionPath(base)
        default: return false
        }
    }

    /// Whether `e`'s value depends only on the task's variables, which do not change while it
    /// waits.
    private static func isFixed(_ e: Expr) -> Bool {
        switch e {
        case .literal, .variable: return true
        case .member(let base, _, _): return isFixed(base)
        case .index(let base, let index, _): return isFixed(base) && isFixed(index)
        case .unary(_, let operand, _): return isFixed(operand)
        case .binary(_, let lhs, let rhs, _): return isFixed(lhs) && isFixed(rhs)
        case .list(let items, _): return items.allSatisfy(isFixed)
        case .record(let fields, _): return fields.allSatisfy { isFixed($0.value) }
        case .interpolation(let parts, _):
            return parts.allSatisfy { part in
                if case .expr(let e) = part { return isFixed(e) }
                return true
            }
        case .it, .state, .cancelled, .builtin: return false
        }
    }

    /// Whether two action paths (see ``keyedSides(of:)``) read the same steps.
    static func samePath(_ a: Expr, _ b: Expr) -> Bool {
        switch (a, b) {
        case (.it, .it):
            return true
        case (.member(let x, let k, _), .member(let y, let l, _)):
            return Record.sameKey(k, l) && samePath(x, y)
        case (.index(let x, .literal(let i, _), _), .index(let y, .literal(let j, _), _)):
            return i.kindName == j.kindName && i == j && samePath(x, y)
        default:
            return false
        }
    }
}
