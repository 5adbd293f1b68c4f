import SagaCore

extension Query {
    /// Whether `element` satisfies every condition of `where`.
    public func matches(_ element: Value) -> Bool {
        for condition in conditions {
            let value = condition.path.value(in: element)
            for test in condition.tests where !test.holds(for: value) { return false }
        }
        return true
    }

    /// The elements that match, ordered by `orderBy` then by `id`, then paged by `offset`
    /// and `limit`.
    ///
    /// - Complexity: O(n log n) for n elements.
    public func apply(_ elements: [Value]) -> [Value] {
        let keys = orderBy
        var rows: [(sort: [Value], id: Value, element: Value)] = []
        for element in elements where matches(element) {
            rows.append((keys.map { $0.path.value(in: element) }, element["id"], element))
        }
        rows.sort { a, b in
            for (i, key) in keys.enumerated() {
                let c = ValueOrder.compare(a.sort[i], b.sort[i])
                if c != 0 { return key.descending ? c > 0 : c < 0 }
            }
            return ValueOrder.compare(a.id, b.id) < 0
        }
        let start = min(offset, rows.count)
        let end = limit.map { min(rows.count, start + min($0, rows.count)) } ?? rows.count
        return rows[start..<end].map(\.element)
    }
}
