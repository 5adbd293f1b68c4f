import SagaCore

/// How the undo log follows an assignment's path into the state, and puts values back there.
extension StateUndoLog {
    /// A path step as the log follows it: a record's key, or a list's position.
    enum Step {
        case key(String)
        case position(Int)
    }

    /// What a path step names, as ``PathAssignment/set(_:_:_:)`` reads it; `nil` for an index
    /// that is neither a string nor an integer (the assignment fails on it).
    static func step(_ key: PathAssignment.Key) -> Step? {
        switch key {
        case .member(let name), .index(.string(let name)): return .key(name)
        case .index(let index): return Evaluator.integer(index).map(Step.position)
        }
    }

    /// What a path step names in `container`: a number index names a record's key (see
    /// ``PathAssignment/recordKey(_:in:)``), a list's position otherwise.
    static func step(_ key: PathAssignment.Key, in container: Value) -> Step? {
        if case .record = container { return PathAssignment.recordKey(key, in: container).map(Step.key) }
        return step(key)
    }

    /// Whether a path step names the record key `key`.
    static func names(_ step: PathAssignment.Key, _ key: String) -> Bool {
        guard case .key(let name)? = Self.step(step) else { return false }
        return Record.sameKey(name, key)
    }

    /// Whether `path` starts with all of `prefix`.
    static func starts(_ path: [PathAssignment.Key], with prefix: [PathAssignment.Key]) -> Bool {
        guard prefix.count <= path.count else { return false }
        for i in prefix.indices {
            switch (step(prefix[i]), step(path[i])) {
            case (.key(let a)?, .key(let b)?): if !Record.sameKey(a, b) { return false }
            case (.position(let a)?, .position(let b)?): if a != b { return false }
            default: return false
            }
        }
        return true
    }

    /// The value at the end of `path` (`.some(nil)`: the last key is absent, or the last
    /// position is one past the list's end), or `nil` when a step names nothing that is there:
    /// such a path is logged by its first member instead.
    static func valueAtEnd(of path: ArraySlice<PathAssignment.Key>, in value: Value) -> Value?? {
        guard let first = path.first, let step = step(first, in: value) else { return nil }
        let isLast = path.count == 1
        switch step {
        case .key(let key):
            guard case .record(let record) = value else { return nil }
            if isLast { return .some(record[key]) }
            guard let next = record[key] else { return nil }
            return valueAtEnd(of: path.dropFirst(), in: next)
        case .position(let i):
            guard case .list(let items) = value, i >= 0, i <= items.count else { return nil }
            // `Value?.none` spelled out: a bare `nil` here is `Value.null` (a literal), which
            // would put a null in place of the item the assignment appended.
            if isLast { return .some(i < items.count ? items[i] : Value?.none) }
            guard i < items.count else { return nil }
            return valueAtEnd(of: path.dropFirst(), in: items[i])
        }
    }

    /// Puts `old` back at the end of `path`: sets it, or, for `nil`, removes the key, or the
    /// list's last item that the assignment appended.
    ///
    /// Each record and list on the way is edited in place (``PathAssignment/update(_:_:_:)``
    /// walks to the container).
    static func put(_ old: Value?, at path: ArraySlice<PathAssignment.Key>, in value: inout Value) {
        guard let last = path.last else { return }
        _ = try? PathAssignment.update(&value, path.dropLast()) { container in
            guard let step = step(last, in: container) else { return }
            switch step {
            case .key(let key):
                guard case .record(var record) = container else { return }
                container = .null  // drop our reference so the record is edited in place
                record[key] = old
                container = .record(record)
            case .position(let i):
                guard case .list(var items) = container, i >= 0, i < items.count else { return }
                container = .null  // drop our reference so the list is edited in place
                if let old {
                    items[i] = old
                } else if i == items.count - 1 {
                    items.removeLast()
                }
                container = .list(items)
            }
        }
    }

    /// Cuts a list to its first `count` items, or a string to its first `count` UTF-8 bytes,
    /// in place. (`+` appended whole strings, so the cut falls between characters' bytes.)
    static func cut(_ value: inout Value, to count: Int) {
        switch value {
        case .list(var items) where items.count > count:
            value = .null  // drop our reference so the list is cut in place
            items.removeSubrange(count...)
            value = .list(items)
        case .string(let text) where text.utf8.count > count:
            value = .string(String(decoding: text.utf8.prefix(count), as: UTF8.self))
        default:
            break
        }
    }
}
