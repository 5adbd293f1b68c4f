import SagaCore

/// The tables a log replay writes to: the entity of the last record is held out of the
/// index, so that a run of records of one entity (the usual log) hashes its name once and
/// writes to a table nothing else references (no copy on write); and each table is grown
/// once, to what the segment may add to it, instead of doubling over and over.
struct ReplayTables {
    private var index: EntityIndex
    /// The entity held out of `index`, and its table.
    private var name: String?
    private var table: [Value: Value] = [:]
    /// The saves of each entity in the segment, at most (``LogReplay/countSaves(_:seed:)``);
    /// an entity's table reserves room for them when it is first taken.
    private var expected: [String: Int]
    /// The entities whose tables reserved room, to give back what they did not use.
    private var reserved: [String] = []

    init(_ index: EntityIndex, expectedSaves: [String: Int]) {
        self.index = index
        self.expected = expectedSaves
    }

    /// Inserts or replaces `element` (whose id was checked).
    mutating func save(entity: String, id: Value, element: Value) {
        select(entity)
        table[id] = element
    }

    /// Removes the element with `id`, if there is one.
    mutating func delete(entity: String, id: Value) {
        select(entity)
        table.removeValue(forKey: id)
    }

    /// The index with every write applied.
    mutating func finish() -> EntityIndex {
        put()
        for name in reserved {
            let table = index.take(entity: name)
            // Records that replace earlier ones leave reserved room unused; keep it within
            // twice what the table holds, as if it had grown by doubling.
            guard table.capacity > 2 * table.count + 64 else {
                index.restore(entity: name, table)
                continue
            }
            var smaller = [Value: Value](minimumCapacity: table.count)
            for (id, element) in table { smaller[id] = element }
            index.restore(entity: name, smaller)
        }
        return index
    }

    /// Makes `entity` the current one.
    private mutating func select(_ entity: String) {
        // Byte by byte, as entity names are told apart (see ``EntityName``).
        if let name, Record.sameKey(name, entity) { return }
        put()
        table = index.take(entity: entity)
        if let saves = expected.removeValue(forKey: entity), saves > 0 {
            table.reserveCapacity(table.count + saves)
            reserved.append(entity)
        }
        name = entity
    }

    /// Puts the current table back into the index.
    private mutating func put() {
        guard let held = name else { return }
        index.restore(entity: held, table)
        table = [:]
        name = nil
    }
}
