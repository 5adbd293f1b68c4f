import SagaCore

/// What a running reducer changed in the state, so that a reducer that fails can be undone
/// without copying the state before every run.
///
/// A reducer edits the store's state in place. Before an assignment to `state.key…`, the log
/// keeps the old value of `key` (a reference, not a copy); before any other assignment to
/// `state`, it keeps the whole state. Rolling back replays the log backwards. Copying the state
/// before each run instead, as a plain "work on a copy" would, makes the first assignment copy
/// every top-level entry: a cost that grows with the state, paid by every action.
struct StateUndoLog {
    private enum Entry {
        /// `key` held `old` (`nil`: it was absent).
        case member(String, old: Value?)
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
        switch keys.first {
        case .member(let key)?, .index(.string(let key))?: willAssign(state, through: key)
        default: willAssign(state, through: nil)
        }
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
            }
        }
        holdsWhole = false
    }
}
