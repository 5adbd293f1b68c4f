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
        // The rest is read as a query reads it, with its messages.
        let query: Query
        do {
            query = try Query.parse(value)
        } catch {
            throw Self.invalid(decoder, error.message)
        }
        var conditions: [String: Condition] = [:]
        if case .record(let whereRecord)? = r["where"] {
            for entry in whereRecord {
                conditions[entry.key] = try Self.condition(entry.value, field: entry.key, decoder)
            }
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

    /// The condition a `where` entry stands for: an operator record's one operator, or a value
    /// to equal.
    private static func condition(_ spec: Value, field: String, _ decoder: any Decoder) throws -> Condition {
        guard case .record(let ops) = spec, let op = ops.keys.first, Query.operators.contains(op) else {
            return .equals(spec)
        }
        guard ops.count == 1, let operand = ops[op] else {
            throw invalid(decoder, "the condition on '\(field)' has more than one operator; a typed request takes one")
        }
        switch op {
        case "==": return .equals(operand)
        case "!=": return .notEquals(operand)
        case "<": return .lessThan(operand)
        case "<=": return .lessThanOrEqual(operand)
        case ">": return .greaterThan(operand)
        case ">=": return .greaterThanOrEqual(operand)
        case "contains": return .contains(operand)
        case "in":
            guard case .list(let items) = operand else {
                throw invalid(decoder, "'in' on '\(field)' takes a list")
            }
            return .isIn(items)
        default:
            guard case .string(let prefix) = operand else {
                throw invalid(decoder, "'prefix' on '\(field)' takes a string")
            }
            return .hasPrefix(prefix)
        }
    }

    private static func invalid(_ decoder: any Decoder, _ message: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
    }
}
