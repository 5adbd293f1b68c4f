import SagaCore

/// What a ``FileStoreController`` request selects: conditions on fields, an order, a page,
/// and whether it stays live (with the semantics of “Queries” in Sagas/README.md).
///
/// ```swift
/// StoreRequest<Song>(where: ["year": .greaterThan(1950)], orderBy: ["-year", "title"], limit: 20, live: true)
/// ```
public struct StoreRequest<Element: Persistable>: Sendable, Equatable {
    /// A condition on one field.
    public enum Condition: Sendable, Equatable, Codable {
        case equals(Value)
        case notEquals(Value)
        case lessThan(Value)
        case lessThanOrEqual(Value)
        case greaterThan(Value)
        case greaterThanOrEqual(Value)
        case isIn([Value])
        case contains(Value)
        case hasPrefix(String)
    }

    /// Field path (`"album.title"`) to the condition it must meet; all must hold.
    public var conditions: [String: Condition]
    /// Field paths to order by, `-` first for descending; ties by id.
    public var orderBy: [String]
    public var limit: Int?
    public var offset: Int
    /// Whether the request delivers again after each change.
    public var live: Bool

    /// Creates a request; with no arguments, every element ordered by id, once.
    public init(
        where conditions: [String: Condition] = [:], orderBy: [String] = [], limit: Int? = nil, offset: Int = 0,
        live: Bool = false
    ) {
        self.conditions = conditions
        self.orderBy = orderBy
        self.limit = limit
        self.offset = offset
        self.live = live
    }

    /// The request as a `persistence/request` record (see “Persistence” in Sagas/README.md),
    /// for ``Query/parse(_:)``, and as it is encoded.
    var record: Value {
        var r = Record()
        var conditionRecord = Record()
        for (path, condition) in conditions {
            let (op, operand): (String, Value)
            switch condition {
            case .equals(let v): (op, operand) = ("==", v)
            case .notEquals(let v): (op, operand) = ("!=", v)
            case .lessThan(let v): (op, operand) = ("<", v)
            case .lessThanOrEqual(let v): (op, operand) = ("<=", v)
            case .greaterThan(let v): (op, operand) = (">", v)
            case .greaterThanOrEqual(let v): (op, operand) = (">=", v)
            case .isIn(let vs): (op, operand) = ("in", .list(vs))
            case .contains(let v): (op, operand) = ("contains", v)
            case .hasPrefix(let s): (op, operand) = ("prefix", .string(s))
            }
            conditionRecord[path] = .record(Record([(op, operand)]))
        }
        if !conditionRecord.isEmpty { r["where"] = .record(conditionRecord) }
        if !orderBy.isEmpty { r["orderBy"] = .list(orderBy.map { .string($0) }) }
        if let limit { r["limit"] = .int(limit) }
        if offset > 0 { r["offset"] = .int(offset) }
        if live { r["live"] = true }
        return .record(r)
    }
}
