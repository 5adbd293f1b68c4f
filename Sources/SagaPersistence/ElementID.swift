import SagaCore

/// Checks elements and ids: an element is a record whose `id` is a string or an integer.
enum ElementID {
    /// The id of `element`.
    ///
    /// - Throws: `.invalidElement` for a non-record or a record without a string or integer id.
    static func of(_ element: Value) throws(StoreError) -> Value {
        guard case .record(let r) = element else {
            throw .invalidElement(
                "an element must be a record with an 'id' (string or integer), not a \(element.kindName)")
        }
        guard let id = r["id"] else {
            throw .invalidElement("an element must be a record with an 'id' (string or integer); this one has none")
        }
        return try check(id)
    }

    /// `id` itself when it is a string or integer; an integral double becomes an integer.
    ///
    /// - Throws: `.invalidElement` for any other value.
    static func check(_ id: Value) throws(StoreError) -> Value {
        switch id {
        case .string, .int: return id
        case .double(let d) where d.rounded() == d && abs(d) < 9.2e18: return .int(Int(d))
        case .double, .bool, .null:
            throw .invalidElement("an element's 'id' must be a string or an integer, not \(id.canonicalJSON)")
        default:
            throw .invalidElement("an element's 'id' must be a string or an integer, not a \(id.kindName)")
        }
    }
}
