import SagaCore

/// A request is encoded as a saga writes it in a `persistence/request` (see “Queries” in
/// Sagas/README.md): `{"where": {"year": {"<": 1960}}, "orderBy": ["-year"], "limit": 20,
/// "offset": 0, "live": true}`, each key optional. So a scripted saga's `put` of the app's
/// typed request action is written as a request is everywhere else.
///
/// A condition is one operator record, or a value the field must equal; a field takes one
/// condition here.
extension StoreRequest: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try Value(from: decoder)
        guard case .record(let r) = value else {
            throw Self.invalid(decoder, "a request is a record, not a \(value.kindName)")
        }
        if let key = r.keys.first(where: { !["where", "orderBy", "limit", "offset", "live"].contains($0) }) {
            throw Self.invalid(decoder, "a request has no '\(key)': it has where, orderBy, limit, offset and live")
        }
        // Read as a query reads it, with its messages.
        let query: Query
        do {
            query = try Query.parse(value)
        } catch {
            throw Self.invalid(decoder, error.message)
        }
        var conditions: [String: Condition] = [:]
        for condition in query.conditions {
            guard condition.tests.count == 1, let test = condition.tests.first else {
                throw Self.invalid(
                    decoder,
                    "the condition on '\(condition.path.text)' has more than one operator; a typed request takes one")
            }
            conditions[condition.path.text] = Self.condition(test)
        }
        let live: Bool
        switch r["live"] {
        case nil, .null?: live = false
        case .bool(let b)?: live = b
        case let other?: throw Self.invalid(decoder, "'live' is true or false, not \(other.canonicalJSON)")
        }
        self.init(
            where: conditions, orderBy: query.orderBy.map { ($0.descending ? "-" : "") + $0.path.text },
            limit: query.limit, offset: query.offset, live: live)
    }

    public func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
    }

    /// The condition a query's test stands for.
    private static func condition(_ test: Query.Test) -> Condition {
        switch test {
        case .equal(let v): .equals(v)
        case .notEqual(let v): .notEquals(v)
        case .less(let v): .lessThan(v)
        case .lessOrEqual(let v): .lessThanOrEqual(v)
        case .greater(let v): .greaterThan(v)
        case .greaterOrEqual(let v): .greaterThanOrEqual(v)
        case .oneOf(let vs): .isIn(vs)
        case .contains(let v): .contains(v)
        case .prefix(let p): .hasPrefix(p)
        }
    }

    private static func invalid(_ decoder: any Decoder, _ message: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
    }
}
