import SagaCore

/// What a running reducer changed in the state, so that a reducer that fails can be undone
/// without copying the state before every run.
///
/// A reducer edits the store's state in place. Before an assignment to `state.key`, the log
/// keeps the old value of `key` (a reference, not a copy); before one through a path of
/// record keys that exist (`state.users[a.id] = …`), the old value at the path's end; before
/// any other assignment to `state`, it keeps the whole state. Rolling back replays the log backwards. Copying the state
/// before each run instead, as a plain "work on a copy" would, makes the first assignment copy
/// every top-level entry: a cost that grows with the state, paid by every action.
struct StateUndoLog {
    private enum Entry {
        /// `key` held `old` (`nil`: it was absent).
        case member(String, old: Value?)
        /// The record at the end of `keys` (all but the last, which may have been absent)
        /// held `old` at the last key. Keeping the old member instead (`users`) kept a second
        /// reference to it, so that the assignment copied it: with a record of many users,
        /// every action of a reducer of two statements copied the users' chunk list and a
        /// chunk (200,000 new keys: 2.95 s, against 0.28 s for one statement, which logs
        /// nothing).
        case path([PathAssignment.Key], old: Value?)
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
            for case .member(let logged, _) in entries where Record.sameKey(logged, key) { return }
            entries.append(.member(key, old: record[key]))
        } else {
            entries.append(.whole(state))
            holdsWhole = true
        }
    }

    /// Notes what an assignment to `state` through `keys` is about to change: the member its
    /// first key names, if it names one (`state.key…`, `state["key"]…`), otherwise the whole
    /// state.
    mutating func willAssign(_ state: Value, through keys: [PathAssignment.Key]) {
        if keys.count > 1, !holdsWhole, entries.count < Self.maxMembers,
            let old = Self.valueAtEnd(of: keys[...], in: state)
        {
            // Already covered: an entry whose path starts this one puts back all below it.
            for entry in entries {
                switch entry {
                case .member(let key, _): if Self.sameKey(keys[0], key) { return }
                case .path(let logged, _): if Self.starts(keys, with: logged) { return }
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

    /// The key a path step names in a record, or `nil` for a list index.
    private static func recordKey(_ step: PathAssignment.Key) -> String? {
        switch step {
        case .member(let key), .index(.string(let key)): return key
        default: return nil
        }
    }

    private static func sameKey(_ step: PathAssignment.Key, _ key: String) -> Bool {
        guard let k = recordKey(step) else { return false }
        return Record.sameKey(k, key)
    }

    /// Whether `path` starts with all of `prefix`.
    private static func starts(_ path: [PathAssignment.Key], with prefix: [PathAssignment.Key]) -> Bool {
        guard prefix.count <= path.count else { return false }
        for i in prefix.indices {
            guard let key = recordKey(prefix[i]), sameKey(path[i], key) else { return false }
        }
        return true
    }

    /// The value at the end of `path` (`.some(nil)`: the last key is absent), or `nil` when a
    /// step is not a record key or a record on the way is missing: such a path is logged by
    /// its first member instead.
    private static func valueAtEnd(of path: ArraySlice<PathAssignment.Key>, in value: Value) -> Value?? {
        guard case .record(let record) = value, let first = path.first, let key = recordKey(first) else { return nil }
        if path.count == 1 { return .some(record[key]) }
        guard let next = record[key] else { return nil }
        return valueAtEnd(of: path.dropFirst(), in: next)
    }

    /// Puts `old` back at the end of `path` (removes the key for `nil`), editing each record
    /// on the way in place.
    private static func put(_ old: Value?, at path: ArraySlice<PathAssignment.Key>, in value: inout Value) {
        guard case .record(var record) = value, let first = path.first, let key = recordKey(first) else { return }
        if path.count > 1, record[key] == nil { return }
        value = .null  // drop our reference so the record is edited in place
        if path.count == 1 {
            record[key] = old
        } else {
            record.modifyValue(forKey: key) { put(old, at: path.dropFirst(), in: &$0) }
        }
        value = .record(record)
    }

    /// The reducer finished: forget what it changed.
    mutating func commit() {
        // Popped one by one: `removeAll(keepingCapacity:)` went through the generic
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
            }
        }
        holdsWhole = false
    }
}
