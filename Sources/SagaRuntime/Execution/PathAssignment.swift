import SagaCore
import SagaLanguage

/// Assignment through a path: `state.users[a.id] = a.user`, `x.count = 1`.
enum PathAssignment {
    /// A path step with its index already evaluated.
    enum Key {
        case member(String)
        case index(Value)
    }

    /// Sets `value` at `path` inside `root`.
    ///
    /// A null (or missing) step on the way becomes a record; a list index must be in range (or
    /// one past the end, which appends).
    ///
    /// When it throws, `root` is as it was: each level puts its container back before passing
    /// the error on (`x.a.b = 1` on a number `x.a` fails and leaves `x` whole, as JavaScript
    /// does), and nothing is changed before the step that fails.
    static func set(_ root: inout Value, _ path: ArraySlice<Key>, _ value: Value) throws(SagaError) {
        if !path.isEmpty, path.startIndex == 0 || value.isContainer {
            try Value.checkDepth(of: value, at: path.count)
        }
        guard let first = path.first else {
            root = value
            return
        }
        let rest = path.dropFirst()
        // The step and the container are matched one at a time: a tuple of the two would hold
        // a second reference to the container through the case, so that editing it "in place"
        // would copy it, at every level of every assignment (a reducer adding to a record of
        // users by id would take time in n²).
        if let key = Self.recordKey(first, in: root) {
            if case .record(var r) = root {
                root = .null  // drop our reference so the record is edited in place
                do {
                    try r.modifyValue(forKey: key) { (child: inout Value) throws(SagaError) in
                        try set(&child, rest, value)
                    }
                } catch {
                    root = .record(r)
                    throw error
                }
                root = .record(r)
                return
            }
            if case .null = root {
                var child = Value.null
                try set(&child, rest, value)
                root = .record(Record([(key, child)]))
                return
            }
        }
        if case .index(let idx) = first, case .list(var items) = root {
            guard let i = Evaluator.integer(idx), i >= 0, i <= items.count else {
                throw SagaError.typeError("list index \(idx.canonicalJSON) is out of range for assignment")
            }
            root = .null
            do {
                if i == items.count {
                    var child = Value.null
                    try set(&child, rest, value)
                    items.append(child)
                } else {
                    try set(&items[i], rest, value)
                }
            } catch {
                root = .list(items)
                throw error
            }
            root = .list(items)
            return
        }
        switch first {
        case .member(let key):
            throw SagaError.typeError("cannot set '.\(key)' of a \(root.kindName)")
        case .index(let idx):
            throw SagaError.typeError("cannot set [\(idx.canonicalJSON)] of a \(root.kindName)")
        }
    }

    /// The key a path step names in `container`, when that is a record or null (which the
    /// step makes a record): a member's name, a string index, or a number index's text (see
    /// ``Evaluator/recordKey(_:)``); `nil` for a list's position, or a step no record has.
    @inline(__always)
    static func recordKey(_ step: Key, in container: Value) -> String? {
        switch step {
        case .member(let key), .index(.string(let key)):
            return key
        case .index(let index):
            switch container {
            case .record, .null: return Evaluator.recordKey(index)
            default: return nil
            }
        }
    }

    /// Sets `root.key = value`: ``set(_:_:_:)`` for a path of one member step.
    static func setMember(_ root: inout Value, _ key: String, _ value: Value) throws(SagaError) {
        try Value.checkDepth(of: value)
        switch root {
        case .record(var r):
            root = .null  // drop our reference so the record is edited in place
            r[key] = value
            root = .record(r)
        case .null:
            root = .record(Record([(key, value)]))
        default:
            throw SagaError.typeError("cannot set '.\(key)' of a \(root.kindName)")
        }
    }

    /// Updates `root.key` where it is with `body` (`.null` if absent, then inserted), `root`
    /// being a record: the member is not copied out and back, so a list or string in it can be
    /// extended in place.
    ///
    /// When `body` throws, `root` is as it was.
    static func updateMember(
        _ root: inout Value, _ key: String, _ body: (inout Value) throws(SagaError) -> Void
    ) throws(SagaError) {
        guard case .record(var r) = root else { return }
        root = .null  // drop our reference so the record is edited in place
        do {
            try r.modifyValue(forKey: key, body)
        } catch {
            root = .record(r)
            throw error
        }
        root = .record(r)
    }
}
