import SagaCore

/// A persistence query (see “Queries” in Sagas/README.md): which elements of an entity
/// (`where`), in which order (`orderBy`, then `id`), and which page of them (`offset`,
/// `limit`).
///
/// Build one from a `persistence/request` record with ``parse(_:)``:
///
/// ```swift
/// let q = try Query.parse([
///     "where": ["year": [">=": 2000], "tags": ["contains": "sf"]],
///     "orderBy": ["-year", "title"],
///     "limit": 10,
/// ])
/// let page = q.apply(elements)
/// ```
///
/// Semantics of `where`, decided where “Queries” in Sagas/README.md is silent:
/// - A plain value means equality (deep; `1 == 1.0`). A record value is always an operator
///   record: compare with a record through `{"==": {…}}`. An empty operator record holds
///   for every element.
/// - A missing field, or a path through a non-record, reads as null.
/// - `<`, `<=`, `>`, `>=` hold only between values of the same kind (two numbers, two
///   strings, two booleans, …), compared by `ValueOrder`; so `{"year": {"<": 2000}}`
///   never matches an element without a year (MongoDB's "type bracketing").
/// - `in` needs a list; `prefix` needs a string; `contains` holds when the field is a list
///   with an element equal to the value, or when both are strings and the field contains the
///   value as a substring (by Unicode scalars).
public struct Query: Sendable {
    /// The conditions; all must hold.
    var conditions: [Condition]
    /// The sort keys before the final tie-break by `id`.
    var orderBy: [SortKey]
    /// How many matching elements to skip, after ordering.
    public var offset: Int
    /// The most elements to return, or nil for all.
    public var limit: Int?

    /// The query that returns every element, ordered by `id`.
    public init() {
        conditions = []
        orderBy = []
        offset = 0
        limit = nil
    }

    /// One field condition: the field at `path` must satisfy every test.
    struct Condition: Sendable {
        let path: FieldPath
        let tests: [Test]
    }

    /// A sort key: a field, ascending or descending.
    struct SortKey: Sendable {
        let path: FieldPath
        let descending: Bool
    }
}
