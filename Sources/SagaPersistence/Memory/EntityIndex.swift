import SagaCore

/// The elements of every entity, indexed by id: what both stores keep in memory and answer
/// queries from.
struct EntityIndex: Sendable {
    /// Entity name to (id to element).
    private(set) var entities: [EntityName: [Value: Value]] = [:]

    init() {}

    /// An index of these tables (recovery builds them whole, which is faster).
    init(entities: [EntityName: [Value: Value]]) {
        self.entities = entities.filter { !$0.value.isEmpty }
    }

    /// The number of elements of each entity, for reports; two names whose texts Swift
    /// takes for equal (canonically equivalent ones) are counted under one.
    var counts: [String: Int] {
        Dictionary(entities.map { ($0.key.text, $0.value.count) }, uniquingKeysWith: +)
    }

    /// The number of elements over all entities.
    var count: Int { entities.values.reduce(0) { $0 + $1.count } }

    /// Inserts or replaces `element`, whose id was checked by ``ElementID/of(_:)``.
    mutating func save(entity: String, id: Value, element: Value) {
        entities[EntityName(entity), default: [:]][id] = element
    }

    /// Removes the element with `id`; returns it, or nil if there was none.
    @discardableResult
    mutating func delete(entity: String, id: Value) -> Value? {
        // In place: copying the table out (`var table = entities[entity]`) would copy every
        // element of the entity on each delete, its storage being shared with the index.
        let name = EntityName(entity)
        guard let old = entities[name]?.removeValue(forKey: id) else { return nil }
        if entities[name]?.isEmpty == true { entities[name] = nil }
        return old
    }

    /// Removes and returns the table of `entity` (empty if there is none), so that a caller
    /// applying many writes to one entity (replaying a log) looks its name up once and holds
    /// the only reference to the table; ``restore(entity:_:)`` puts it back.
    mutating func take(entity: String) -> [Value: Value] {
        entities.removeValue(forKey: EntityName(entity)) ?? [:]
    }

    /// Puts back a table that ``take(entity:)`` removed; an empty one leaves the entity out.
    mutating func restore(entity: String, _ table: [Value: Value]) {
        if !table.isEmpty { entities[EntityName(entity)] = table }
    }

    /// The matching elements of `entity`, ordered and paged.
    func query(entity: String, _ query: Query) -> [Value] {
        guard let table = entities[EntityName(entity)] else { return [] }
        // A condition on `id` by equality (or `in`) picks its elements from the index
        // instead of scanning the entity; the other conditions still apply to them.
        for condition in query.conditions where condition.path.components == ["id"] {
            for test in condition.tests {
                switch test {
                case .equal(let id):
                    return query.apply(table[id].map { [$0] } ?? [])
                case .oneOf(let ids):
                    return query.apply(Set(ids).compactMap { table[$0] })
                default:
                    continue
                }
            }
        }
        return query.apply(Array(table.values))
    }
}
