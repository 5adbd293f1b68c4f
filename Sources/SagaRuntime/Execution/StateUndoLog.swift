import SagaCore
import SagaLanguage

/// What a running reducer changed in the state, so that a reducer that fails can be undone
/// without copying the state before every run.
///
/// A reducer edits the store's state in place. Before an assignment to `state.key`, the log
/// keeps the old value of `key` (a reference, not a copy); before one through a path of
/// record keys and list positions that exist (`state.users[a.id] = …`,
/// `state.todos[a.i].done = …`), the old value at the path's end; before
/// any other assignment to `state`, it keeps the whole state. Rolling back replays the log backwards. Copying the state
/// before each run instead, as a plain "work on a copy" would, makes the first assignment copy
/// every top-level entry: a cost that grows with the state, paid by every action.
struct StateUndoLog {
    private enum Entry {
        /// `key` held `old` (`nil`: it was absent).
        case member(String, old: Value?)
        /// The record or list at the end of `keys` (all but the last, which may have been
        /// absent, or one past a list's end) held `old` at the last key.
        ///
        /// Keeping the old member instead (`users`) would keep a second reference to it, so
        /// that the assignment copies it: with a record of many users, every action of a
        /// reducer of two statements would copy the users' chunk list and a chunk.
        case path([PathAssignment.Key], old: Value?)
        /// The list or string at `key` had `count` items (a string: UTF-8 bytes) before it was
        /// extended in place (`state.todos = state.todos + [x]`).
        ///
        /// Keeping the old member instead would keep a second reference to it, so that
        /// extending it copies it: a reducer of two statements appending to a list would take
        /// time in n².
        case extended(String, count: Int)
        /// The same for the list or string at the end of `keys`, a path of more than one step
        /// (`state.byChannel[a.ch] = state.byChannel[a.ch] + [a.msg]`).
        case extendedAt([PathAssignment.Key], count: Int)
        /// The state as a whole was this.
        case whole(Value)
    }

    /// How many distinct keys to log one by one before keeping the whole state instead: the
    /// log is searched for each assignment, so it must stay short.
    static let maxMembers = 16

    private var entries: [Entry] = []
    /// The whole state is logged: later changes need no entry, since rolling back restores it.
    private var holdsWhole = false

    /// Notes what an assignment to `state` is about to change: the member `key` when the state
    /// is a record and the assignment goes through `state.key` (or `state["key"]`), otherwise
    /// the whole state.
    mutating func willAssign(_ state: Value, through key: String?) {
        if holdsWhole { return }
        if let key, case .record(let record) = state, entries.count < Self.maxMembers {
            // (An `.extended` entry does not cover it: this assignment may replace the member.)
            for case .member(let logged, _) in entries where Record.sameKey(logged, key) { return }
            entries.append(.member(key, old: record[key]))
        } else {
            entries.append(.whole(state))
            holdsWhole = true
        }
    }

    /// Notes that `state.key = state.key op operand` is about to update the member `key` in
    /// place: a list or a string that `+` extends is logged by its length (rolling back cuts
    /// it to that), anything else is logged as an assignment to `key` is.
    mutating func willUpdate(_ state: Value, member key: String, _ op: BinaryOperator, _ operand: Value) {
        if holdsWhole { return }
        guard case .add = op, case .record(let record) = state, entries.count < Self.maxMembers else {
            return willAssign(state, through: key)
        }
        for entry in entries {
            switch entry {
            // Already covered: rolling back puts back the member, or cuts it to an earlier
            // length (any assignment in between logged the member in between).
            case .member(let logged, _), .extended(let logged, _): if Record.sameKey(logged, key) { return }
            case .path, .extendedAt: continue  // below a member; no path is one key long
            case .whole: return
            }
        }
        let length: Int?? = record.withValue(forKey: key) { value in
            switch (value, operand) {
            case (.list(let items), .list): items.count
            case (.string(let text), .string): text.utf8.count
            default: nil
            }
        }
        guard case let count?? = length else { return willAssign(state, through: key) }
        entries.append(.extended(key, count: count))
    }

    /// Notes that the list or string at the end of `keys` (more than one step), `count` long,
    /// is about to be extended in place: rolling back cuts it to that length.
    mutating func willExtend(_ state: Value, through keys: [PathAssignment.Key], count: Int) {
        if holdsWhole { return }
        guard keys.count > 1, entries.count < Self.maxMembers else { return willAssign(state, through: keys) }
        for entry in entries {
            switch entry {
            case .member(let key, _): if Self.names(keys[0], key) { return }
            case .path(let logged, _): if Self.starts(keys, with: logged) { return }
            // An earlier extension of the same list cuts it shorter still.
            case .extendedAt(let logged, _): if logged.count == keys.count, Self.starts(keys, with: logged) { return }
            case .extended: continue
            case .whole: return
            }
        }
        entries.append(.extendedAt(keys, count: count))
    }

    /// Notes what an assignment to `state` through `keys` is about to change: the member its
    /// first key names, if it names one (`state.key…`, `state["key"]…`), otherwise the whole
    /// state.
    mutating func willAssign(_ state: Value, through keys: [PathAssignment.Key]) {
        if keys.count > 1, !holdsWhole, entries.count < Self.maxMembers,
            let old = Self.valueAtEnd(of: keys[...], in: state)
        {
            // Already covered: an entry whose path starts this one puts back all below it.
            // (Paths through list positions stay valid as the log is replayed: a change that
            // moves a list's items replaces the list, and is logged, and undone, after.)
            for entry in entries {
                switch entry {
                case .member(let key, _): if Self.names(keys[0], key) { return }
                case .path(let logged, _): if Self.starts(keys, with: logged) { return }
                case .extended, .extendedAt: continue
                case .whole: return
                }
            }
            entries.append(.path(keys, old: old))
            return
        }
        switch keys.first {
        case .member(let key)?, .index(.string(let key))?: willAssign(state, through: key)
        default: willAssign(state, through: nil)
        }
    }

    /// The reducer finished: forget what it changed.
    mutating func commit() {
        // Popped one by one: `removeAll(keepingCapacity:)` goes through the generic
        // `replaceSubrange`, dearer than the one or two entries a reducer usually logs.
        while entries.popLast() != nil {}
        holdsWhole = false
    }

    /// The reducer failed: puts back everything it changed, newest first.
    mutating func rollBack(_ state: inout Value) {
        while let entry = entries.popLast() {
            switch entry {
            case .whole(let old):
                state = old
            case .member(let key, let old):
                // A member entry is only logged over a record, and a failed assignment leaves
                // its target as it was, so the state is that record again here.
                guard case .record(var record) = state else { continue }
                state = .null  // drop our reference so the record is edited in place
                record[key] = old
                state = .record(record)
            case .path(let keys, let old):
                Self.put(old, at: keys[...], in: &state)
            case .extendedAt(let keys, let count):
                _ = try? PathAssignment.update(&state, keys[...]) { Self.cut(&$0, to: count) }
            case .extended(let key, let count):
                guard case .record(var record) = state else { continue }
                state = .null  // drop our reference so the record is edited in place
                record.modifyValue(forKey: key) { Self.cut(&$0, to: count) }
                state = .record(record)
            }
        }
        holdsWhole = false
    }
}
