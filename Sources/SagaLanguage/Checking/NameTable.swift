/// A hash table from names to integers, for the checker's look-ups of the program's functions
/// and sagas (variables are found by number: see ``ScopeStack``).
///
/// A `[String: Int]` hashes every key with SipHash, seeded per process, which for the short
/// names of a program is most of a look-up. Here a name is hashed with FNV-1a over its UTF-8
/// bytes, and found by linear probing in a table at most half full; the full 64-bit hash is
/// compared before the names are.
struct NameTable {
    /// Each slot's hash with its lowest bit set, or 0 for an empty slot.
    private var hashes: [UInt64]
    /// Each used slot's index in ``names`` and ``values``.
    private var entries: [Int32]
    /// The names and their values, in the order first set: only these hold strings. (A name
    /// per slot, the table's empty slots included, would be a string to make and another to
    /// let go of at each slot, and there are twice as many slots as names.)
    private var names: [String] = []
    private var values: [Int] = []
    /// The slot of each entry, so that ``removeAll()`` and growing cost what was put in, not
    /// the capacity.
    private var occupied: [Int] = []

    /// Creates an empty table with room for `capacity` names before it grows.
    init(capacity: Int = 8) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        hashes = Array(repeating: 0, count: size)
        entries = Array(repeating: 0, count: size)
    }

    /// How many names the table holds.
    var count: Int { names.count }

    /// The value stored for `name`, if any.
    func value(for name: String) -> Int? {
        value(for: name, hash: NameTable.hash(name))
    }

    /// The value stored for `name`, whose ``hash(_:)`` is `hash`, if any.
    func value(for name: String, hash: UInt64) -> Int? {
        let mask = hashes.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 1) & mask
        while true {
            let stored = hashes[slot]
            if stored == 0 { return nil }
            if stored == hash {
                let entry = Int(entries[slot])
                if names[entry] == name { return values[entry] }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Stores `value` for `name`, replacing what was stored for it.
    mutating func set(_ value: Int, for name: String) {
        set(value, for: name, hash: NameTable.hash(name))
    }

    /// Stores `value` for `name`, whose ``hash(_:)`` is `hash`.
    mutating func set(_ value: Int, for name: String, hash: UInt64) {
        let mask = hashes.count - 1
        var slot = Int(truncatingIfNeeded: hash >> 1) & mask
        while true {
            let stored = hashes[slot]
            if stored == 0 { break }
            if stored == hash {
                let entry = Int(entries[slot])
                if names[entry] == name {
                    values[entry] = value
                    return
                }
            }
            slot = (slot + 1) & mask
        }
        hashes[slot] = hash
        entries[slot] = Int32(truncatingIfNeeded: names.count)
        names.append(name)
        values.append(value)
        occupied.append(slot)
        if occupied.count * 2 > hashes.count { grow() }
    }

    /// Empties the table, keeping its capacity.
    mutating func removeAll() {
        for slot in occupied { hashes[slot] = 0 }
        occupied.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each name and its value, in no particular order.
    func forEach(_ body: (String, Int) -> Void) {
        for entry in names.indices { body(names[entry], values[entry]) }
    }

    /// Doubles the capacity and puts every name back.
    private mutating func grow() {
        let oldHashes = hashes
        let capacity = hashes.count * 2
        hashes = Array(repeating: 0, count: capacity)
        entries = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for entry in occupied.indices {
            let hash = oldHashes[occupied[entry]]
            var slot = Int(truncatingIfNeeded: hash >> 1) & mask
            while hashes[slot] != 0 { slot = (slot + 1) & mask }
            hashes[slot] = hash
            entries[slot] = Int32(truncatingIfNeeded: entry)
            occupied[entry] = slot
        }
    }

    /// FNV-1a of the name's UTF-8 bytes, with the high half folded in (the low bits pick the
    /// slot) and the lowest bit set (0 marks an empty slot).
    @inline(__always)
    static func hash(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let done: Void? = name.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        if done == nil {
            for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        return (hash ^ (hash >> 29)) | 1
    }
}
