import SagaCore

/// A dotted path to a field of an element: `"address.city"`; a component that is a
/// non-negative integer also indexes a list (`"tags.0"`).
struct FieldPath: Sendable, Hashable {
    /// The components, in order.
    let components: [String]
    /// The path as written.
    let text: String

    /// Parses a dotted path; nil for an empty path or an empty component (`"a..b"`).
    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.isEmpty || parts.contains(where: \.isEmpty) { return nil }
        self.components = parts
        self.text = text
    }

    /// The value at this path in `element`; null when a step is missing or is not a record
    /// (or a list, for an index).
    func value(in element: Value) -> Value {
        var current = element
        for component in components {
            switch current {
            case .record(let r):
                current = r[component] ?? .null
            case .list(let items):
                guard let i = Int(component), i >= 0, i < items.count else { return .null }
                current = items[i]
            default:
                return .null
            }
        }
        return current
    }
}
