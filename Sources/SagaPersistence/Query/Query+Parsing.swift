import SagaCore

extension Query {
    /// Reads a query from a `persistence/request` record: its `where`, `orderBy`, `limit` and
    /// `offset` (each optional; null counts as absent).
    ///
    /// Other keys (`entity`, `live`, `ref`, `type`) are ignored.
    ///
    /// ```swift
    /// let q = try Query.parse(["entity": "books", "orderBy": ["-year"], "limit": 5])
    /// ```
    ///
    /// - Throws: `.invalidQuery` with a message naming the bad part: an unknown operator, a
    ///   bad field path, an `orderBy` that is not a list of field paths, a `limit` or
    ///   `offset` that is not a non-negative integer.
    public static func parse(_ request: Value) throws(StoreError) -> Query {
        guard case .record(let r) = request else {
            throw .invalidQuery("a request must be a record, not a \(request.kindName)")
        }
        var q = Query()
        switch r["where"] ?? .null {
        case .null: break
        case .record(let w):
            for entry in w {
                q.conditions.append(try parseCondition(entry.key, entry.value))
            }
        case let other:
            throw .invalidQuery("'where' must be a record of field paths, not a \(other.kindName)")
        }
        switch r["orderBy"] ?? .null {
        case .null: break
        case .list(let keys):
            for key in keys {
                guard case .string(let text) = key else {
                    throw .invalidQuery("'orderBy' must list field paths (strings), not a \(key.kindName)")
                }
                let descending = text.hasPrefix("-")
                let pathText = descending ? String(text.dropFirst()) : text
                guard let path = FieldPath(pathText) else {
                    throw .invalidQuery("bad field path '\(text)' in 'orderBy'")
                }
                q.orderBy.append(SortKey(path: path, descending: descending))
            }
        case let other:
            throw .invalidQuery("'orderBy' must be a list of field paths, not a \(other.kindName)")
        }
        q.limit = try count(r["limit"], "limit")
        q.offset = try count(r["offset"], "offset") ?? 0
        return q
    }

    private static func parseCondition(_ field: String, _ spec: Value) throws(StoreError) -> Condition {
        guard let path = FieldPath(field) else {
            throw .invalidQuery("bad field path '\(field)' in 'where'")
        }
        // A field maps to a value (equality) or to an operator record. A record is an
        // operator record when its keys are operators; one with no operator keys is a value
        // compared for equality (`{ o: { k: 1 } }`, `{ s: {} }`); one that mixes the two is
        // refused rather than guessed.
        guard case .record(let ops) = spec, !ops.isEmpty, ops.keys.contains(where: Query.operators.contains) else {
            // Keys made of operator characters alone (`~`, `=>`) are a misspelt operator, not a
            // record value anyone compares with.
            if case .record(let ops) = spec,
                let typo = ops.keys.first(where: { !$0.isEmpty && $0.allSatisfy { "<>=!~".contains($0) } })
            {
                throw .invalidQuery(
                    "'\(typo)' in the condition on '\(path.text)' is no operator (== != < <= > >= in contains prefix)")
            }
            return Condition(path: path, tests: [.equal(spec)])
        }
        if let field = ops.keys.first(where: { !Query.operators.contains($0) }) {
            throw .invalidQuery(
                "the condition on '\(path.text)' mixes operators with '\(field)'; an operator record holds only operators"
                    + " (== != < <= > >= in contains prefix), and a record value to compare must hold none")
        }
        var tests: [Test] = []
        for entry in ops {
            tests.append(try Test.make(entry.key, entry.value, field: field))
        }
        return Condition(path: path, tests: tests)
    }

    /// A non-negative integer (an integral double counts), or nil when absent or null.
    private static func count(_ value: Value?, _ name: String) throws(StoreError) -> Int? {
        switch value ?? .null {
        case .null: return nil
        case .int(let n) where n >= 0: return n
        case .double(let d) where d >= 0 && d.rounded() == d && d < 9.2e18: return Int(d)
        case let other:
            let shown = other.numberValue != nil ? other.canonicalJSON : "a \(other.kindName)"
            throw .invalidQuery("'\(name)' must be a non-negative integer, not \(shown)")
        }
    }

    /// The operators of a `where` operator record.
    static let operators: Set<String> = ["==", "!=", "<", "<=", ">", ">=", "in", "contains", "prefix"]
}
