/// The record value: string keys to values, kept sorted by Unicode scalar value. Keys are
/// compared by their scalars too (not by Swift's canonical equivalence), so that order and
/// equality agree.
///
/// Most records in sagas are small (an action, a slice of state), and a small record is one
/// sorted array: lookups are a scan or a binary search over a few keys, canonical JSON writes
/// the entries as they are, and equality is one pass. A record that grows past
/// ``flatCapacity`` keys (normalized state: `state.users[id] = user`) keeps them in sorted
/// chunks instead (`Record+Chunks.swift`), so that adding or removing a key moves at most one
/// chunk's entries rather than half the record's: as one array, 40,000 new keys in random
/// order took 12 s.
///
/// A record is a sequence of its entries in key order:
///
/// ```swift
/// let r: Record = ["b": 2, "a": 1]
/// r.map(\.key)  // ["a", "b"]
/// ```
public struct Record: Sendable {
    /// The entries of a small record, sorted by key (Unicode scalar order, which is UTF-8
    /// byte order); empty while the record is chunked.
    @usableFromInline var flat: [Entry]

    /// The entries of a large record, in sorted runs of 1 to ``chunkCapacity`` entries (each
    /// run's keys before the next run's); empty while the record is flat. At most one of
    /// `flat` and `chunks` holds entries.
    @usableFromInline var chunks: [[Entry]]

    /// An empty record.
    public init() {
        flat = []
        chunks = []
    }

    /// An empty record with room for `capacity` keys: a record built key by key otherwise
    /// reallocates its storage as it grows (a third of the cost of building a small record).
    public init(minimumCapacity capacity: Int) {
        flat = []
        chunks = []
        flat.reserveCapacity(Swift.min(capacity, Record.flatCapacity))
    }

    /// A record of the given entries; a later duplicate key wins.
    @inlinable
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        self.init(minimumCapacity: pairs.underestimatedCount)
        for (k, v) in pairs { self[k] = v }
    }

    /// Entries already sorted by key with no duplicates (the JSON reader and joins use this).
    public init(sortedEntries: [Entry]) {
        (flat, chunks) =
            sortedEntries.count > Record.flatCapacity ? ([], Record.chunked(sortedEntries)) : (sortedEntries, [])
    }

    /// Entries in any order, sorted here: for the few entries of an action, one insertion
    /// sort of the array is much cheaper than setting the keys one by one (a search and an
    /// insertion each). Of two entries with the same key, the later one wins.
    ///
    /// - Complexity: O(n²) comparisons at worst (entries in reverse order) for the handful of
    ///   keys a literal or an action has; O(n log n) past 32 entries.
    public init(unsortedEntries: consuming [Entry]) {
        if unsortedEntries.count > 32 {
            let sorted = Record.sortedUnique(unsortedEntries)
            (flat, chunks) = sorted.count > Record.flatCapacity ? ([], Record.chunked(sorted)) : (sorted, [])
            return
        }
        // Consumed, so that the caller's array is sorted in place rather than copied.
        var i = 1
        while i < unsortedEntries.count {
            var j = i
            i += 1
            while j > 0 {
                let order = Record.compareKeys(unsortedEntries[j - 1].key, unsortedEntries[j].key)
                if order < 0 { break }
                if order == 0 {
                    // The entry being placed came later than every one before it.
                    unsortedEntries.swapAt(j - 1, j)
                    unsortedEntries.remove(at: j)
                    i -= 1
                    break
                }
                unsortedEntries.swapAt(j - 1, j)
                j -= 1
            }
        }
        flat = unsortedEntries
        chunks = []
    }

    /// Entries sorted by key; of duplicate keys, the one that came last wins.
    static func sortedUnique(_ entries: [Entry]) -> [Entry] {
        let ordered = entries.indices.sorted { a, b in
            let order = Record.compareKeys(entries[a].key, entries[b].key)
            return order == 0 ? a < b : order < 0
        }
        var out: [Entry] = []
        out.reserveCapacity(entries.count)
        for i in ordered {
            let entry = entries[i]
            if let last = out.last, Record.sameKey(last.key, entry.key) {
                out[out.count &- 1] = entry
            } else {
                out.append(entry)
            }
        }
        return out
    }

    /// The number of keys.
    ///
    /// - Complexity: O(1) for a small record; O(number of chunks) for a large one.
    @inlinable public var count: Int { chunks.isEmpty ? flat.count : chunkedCount }

    /// `true` when the record has no keys.
    @inlinable public var isEmpty: Bool { flat.isEmpty && chunks.isEmpty }

    /// The keys in sorted order.
    public var keys: [String] { map(\.key) }

    /// The values in key order.
    public var values: [Value] { map(\.value) }

    /// Runs `body` on the value of `key` in place (`.null` if absent, then inserted), so a
    /// nested update does not copy the record's other values.
    public mutating func modifyValue<E: Error>(
        forKey key: String, _ body: (inout Value) throws(E) -> Void
    ) throws(E) {
        if !chunks.isEmpty {
            try modifyChunkedValue(forKey: key, body)
            return
        }
        let r = search(key)
        if r.found {
            try body(&flat[r.index].value)
        } else {
            var value = Value.null
            try body(&value)
            insert(key, value, at: r.index)
        }
    }

    /// Inserts an entry into a flat record at `index`, where the search put it; a record
    /// that would outgrow ``flatCapacity`` becomes chunked.
    @usableFromInline
    mutating func insert(_ key: String, _ value: consuming Value, at index: Int) {
        if flat.count >= Record.flatCapacity {
            chunks = Record.chunked(flat)
            flat = []
            insertChunked(key, value)
            return
        }
        Record.insert(Entry(key: key, value: value), at: index, in: &flat)
    }

    /// Inserts `entry` into sorted `entries` at `index`. A few entries are appended and moved
    /// down by swaps: `Array.insert` went through the generic `replaceSubrange`, several
    /// times slower for the few entries of most records (callgrind, the persistence reducer).
    /// Past those, each swap retains and releases the entry's key and value, and the move
    /// that `insert` makes at once is the cheaper (half the time of 20,000 new keys went to
    /// the swaps, perf).
    static func insert(_ entry: consuming Entry, at index: Int, in entries: inout [Entry]) {
        if entries.count &- index > 8 {
            entries.insert(entry, at: index)
            return
        }
        entries.append(entry)
        var i = entries.count &- 1
        while i > index {
            entries.swapAt(i, i &- 1)
            i &-= 1
        }
    }

    /// Adds `key` unless the record has it already; one search for both.
    ///
    /// - Returns: `false` (and the record unchanged) when `key` is there.
    public mutating func insertIfAbsent(_ key: String, _ value: consuming Value) -> Bool {
        if !chunks.isEmpty { return insertChunkedIfAbsent(key, value) }
        let r = search(key)
        if r.found { return false }
        insert(key, value, at: r.index)
        return true
    }

    /// The index of `key` in a flat record, or where it would be inserted.
    @usableFromInline
    func search(_ key: String) -> (index: Int, found: Bool) {
        Record.search(key, in: flat)
    }

    /// The index of `key` in sorted `entries`, or where it would be inserted.
    static func search(_ key: String, in entries: [Entry]) -> (index: Int, found: Bool) {
        var lo = 0
        var hi = entries.count
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            let order = Record.compareKeys(entries[mid].key, key)
            if order == 0 { return (mid, true) }
            if order < 0 { lo = mid &+ 1 } else { hi = mid }
        }
        return (lo, false)
    }

    /// The value of `key`, or `nil` if it is absent. Setting `nil` removes the key.
    ///
    /// Inlinable: the interpreter reads a field of a small record several times per action,
    /// and a call across modules cost more than the look-up itself (callgrind).
    public subscript(key: String) -> Value? {
        @inlinable get {
            // Small records: a linear scan is faster than a binary search. A chunked record's
            // `flat` is empty, so it passes through to its own search.
            if flat.count <= 8 {
                // By index: iterating the entries would copy (retain and release) every value
                // passed over.
                for i in flat.indices where Record.sameKey(flat[i].key, key) { return flat[i].value }
                return chunks.isEmpty ? nil : chunkedValue(forKey: key)
            }
            let r = search(key)
            // Not `found ? value : nil`: `Value` is `ExpressibleByNilLiteral`, so that `nil`
            // would be `Value.null`, and an absent key of a record of more than 8 keys would
            // read as present.
            guard r.found else { return nil }
            return flat[r.index].value
        }
        set {
            // A key already there, in a small record, is found as the getter finds it: the
            // ordered search is only needed to insert (callgrind, every-select-put: a reducer's
            // `state.count = …`).
            if let v = newValue, flat.count <= 8 {
                for i in flat.indices where Record.sameKey(flat[i].key, key) {
                    flat[i].value = v
                    return
                }
            }
            if !chunks.isEmpty {
                setChunkedValue(newValue, forKey: key)
                return
            }
            let r = search(key)
            if let v = newValue {
                if r.found { flat[r.index].value = v } else { insert(key, v, at: r.index) }
            } else if r.found {
                flat.remove(at: r.index)
            }
        }
    }

    /// The string value of `key`, read in place.
    ///
    /// ```swift
    /// let action: Record = ["type": "add", "by": 2]
    /// action.string(forKey: "type")  // "add"
    /// action.string(forKey: "by")    // nil: not a string
    /// ```
    ///
    /// - Returns: the string, or `nil` if the key is absent or holds something else.
    @inlinable @inline(__always)
    public func string(forKey key: String) -> String? {
        withValue(forKey: key) { value in
            if case .string(let s) = value { return s }
            return nil
        } ?? nil
    }

    /// Runs `body` on the value of `key` where it lies, without copying it out: the subscript
    /// copies the whole value and destroys it again, and an action's `type` is read several
    /// times per dispatch (callgrind, every-select-put).
    ///
    /// ```swift
    /// let action: Record = ["type": "add"]
    /// action.withValue(forKey: "type") { if case .string = $0 { true } else { false } }  // true
    /// ```
    ///
    /// - Returns: what `body` returns, or `nil` if the key is absent.
    @inlinable @inline(__always)
    public func withValue<R>(forKey key: String, _ body: (Value) -> R) -> R? {
        if flat.count <= 8 {
            for i in flat.indices where Record.sameKey(flat[i].key, key) { return body(flat[i].value) }
            if chunks.isEmpty { return nil }
            guard let value = chunkedValue(forKey: key) else { return nil }
            return body(value)
        }
        let r = search(key)
        guard r.found else { return nil }
        return body(flat[r.index].value)
    }

    /// This record with `other`'s entries added; `other`'s keys win.
    public func merging(_ other: Record) -> Record {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var out: [Entry] = []
        out.reserveCapacity(count + other.count)
        var mine = makeIterator()
        var theirs = other.makeIterator()
        var a = mine.next()
        var b = theirs.next()
        while let x = a, let y = b {
            let order = Record.compareKeys(x.key, y.key)
            if order <= 0 {
                // A key both have takes `other`'s value.
                out.append(order == 0 ? y : x)
                a = mine.next()
                if order == 0 { b = theirs.next() }
            } else {
                out.append(y)
                b = theirs.next()
            }
        }
        while let x = a {
            out.append(x)
            a = mine.next()
        }
        while let y = b {
            out.append(y)
            b = theirs.next()
        }
        return Record(sortedEntries: out)
    }
}

extension Record: ExpressibleByDictionaryLiteral {
    /// A record of the given entries; a later duplicate key wins.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}
