/// The record value: string keys to values, kept sorted by Unicode scalar value.
///
/// Keys are compared by their scalars too (not by Swift's canonical equivalence), so that
/// order and equality agree.
///
/// Most records in sagas are small (an action, a slice of state), and a small record is one
/// sorted array: lookups are a scan or a binary search over a few keys, canonical JSON writes
/// the entries as they are, and equality is one pass. A record that grows past
/// `flatCapacity` keys (normalized state: `state.users[id] = user`) keeps them in sorted
/// chunks instead (`Record+Chunks.swift`), so that adding or removing a key moves at most one
/// chunk's entries rather than half the record's: as one array, adding n keys in random
/// order would take time in n². An action with nothing but its type, `{type: "…"}`, is kept as the type
/// string alone (`Storage.typed`), which copies without reference counting when short.
///
/// A record is a sequence of its entries in key order:
///
/// ```swift
/// let r: Record = ["b": 2, "a": 1]
/// r.map(\.key)  // ["a", "b"]
/// ```
public struct Record: Sendable {
    /// Where the entries are: an array, a chunk list or a string, one case at a time, so that
    /// copying a record (an action is copied several times a dispatch) retains one reference
    /// at most. (17 bytes with the string's case; two fields, a flat array and a chunk list
    /// beside it, would cost more at every copy.)
    @usableFromInline enum Storage: Sendable {
        /// A small record's entries, sorted by key (Unicode scalar order, which is UTF-8 byte
        /// order): at most ``Record/flatCapacity``.
        case flat([Entry])
        /// A large record's entries, in sorted runs of 1 to ``Record/chunkCapacity`` entries
        /// (each run's keys before the next run's), two runs at least.
        case chunked([[Entry]])
        /// `{type: <this string>}`: an action with nothing but its type, kept as the string
        /// alone. A type of up to 15 bytes is a small string, held in the record's own bits,
        /// so that copying and freeing the action touch no reference count: each is an atomic
        /// operation otherwise, and an action is copied several times a dispatch.
        /// Made by ``Record/init(type:)`` (a `put "t"`'s way), ``Record/storage(_:)`` (the
        /// JSON reader's) and ``Record/init(unsortedEntries:)`` (a literal's); the first change
        /// to the record makes it flat (``Record/untype()``).
        case typed(String)
    }

    @usableFromInline var storage: Storage

    /// An empty record.
    public init() { storage = .flat([]) }

    /// An empty record with room for `capacity` keys: a record built key by key otherwise
    /// reallocates its storage as it grows (a large part of the cost of building a small
    /// record).
    public init(minimumCapacity capacity: Int) {
        var entries: [Entry] = []
        entries.reserveCapacity(Swift.min(capacity, Record.flatCapacity))
        storage = .flat(entries)
    }

    /// A record of the given entries; a later duplicate key wins.
    @inlinable
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        self.init(minimumCapacity: pairs.underestimatedCount)
        for (k, v) in pairs { self[k] = v }
    }

    /// Entries already sorted by key with no duplicates (the JSON reader and joins use this).
    public init(sortedEntries: [Entry]) {
        storage = Record.storage(sortedEntries)
    }

    /// Entries in any order, sorted here: for the few entries of an action, one insertion sort
    /// of the array is much cheaper than setting the keys one by one (a search and an
    /// insertion each).
    ///
    /// Of two entries with the same key, the later one wins.
    ///
    /// - Complexity: O(n²) comparisons at worst (entries in reverse order) for the handful of
    ///   keys a literal or an action has; O(n log n) past 32 entries.
    public init(unsortedEntries: consuming [Entry]) {
        if unsortedEntries.count > 32 {
            storage = Record.storage(Record.sortedUnique(unsortedEntries))
            return
        }
        if unsortedEntries.count == 1, let type = Record.typeOnly(unsortedEntries[0]) {
            storage = .typed(type)
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
        storage = .flat(unsortedEntries)
    }

    /// The storage of sorted entries: typed for `{type: "…"}` alone, flat, or chunked past
    /// `flatCapacity`.
    static func storage(_ sorted: consuming [Entry]) -> Storage {
        if sorted.count == 1, let type = typeOnly(sorted[0]) { return .typed(type) }
        return sorted.count > Record.flatCapacity ? .chunked(Record.chunked(sorted)) : .flat(sorted)
    }

    /// The type of `{type: "…"}`'s one entry, or `nil` for any other entry.
    @inline(__always)
    static func typeOnly(_ entry: Entry) -> String? {
        guard case .string(let type) = entry.value, sameKey(entry.key, typeKey) else { return nil }
        return type
    }

    /// `type`, the key of an action's type.
    @usableFromInline static var typeKey: String { "type" }

    /// The one entry of a typed record (`Storage.typed`), made when it is asked for.
    @usableFromInline static func typeEntry(_ type: String) -> Entry {
        Entry(key: typeKey, value: .string(type))
    }

    /// `{type: type}`, kept as the string alone (see `Storage.typed`).
    ///
    /// ```swift
    /// Record(type: "ping") == ["type": "ping"]  // true
    /// ```
    public init(type: String) {
        storage = .typed(type)
    }

    /// A typed record made flat, before a change: only flat and chunked records change.
    ///
    /// Inlined (the test): a call per write would be a noticeable cost to reducers at every
    /// action.
    @inlinable @inline(__always)
    mutating func untype() {
        if case .typed = storage { makeFlat() }
    }

    /// ``untype()``'s work, out of line.
    @usableFromInline
    mutating func makeFlat() {
        guard case .typed(let type) = storage else { return }
        storage = .flat([Record.typeEntry(type)])
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
    @inlinable public var count: Int {
        switch storage {
        case .flat(let entries): return entries.count
        case .chunked(let chunks): return Record.count(of: chunks)
        case .typed: return 1
        }
    }

    /// `true` when the record has no keys.
    @inlinable public var isEmpty: Bool {
        if case .flat(let entries) = storage { return entries.isEmpty }
        return false
    }

    /// The keys in sorted order.
    public var keys: [String] { map(\.key) }

    /// The values in key order.
    public var values: [Value] { map(\.value) }

    /// Runs `body` on the value of `key` in place (`.null` if absent, then inserted), so a
    /// nested update does not copy the record's other values.
    @inlinable
    public mutating func modifyValue<E: Error>(
        forKey key: String, _ body: (inout Value) throws(E) -> Void
    ) throws(E) {
        untype()
        guard let r = flatPosition(of: key) else {
            try modifyChunks { (chunks: inout [[Entry]]) throws(E) in
                try Record.modifyValue(forKey: key, in: &chunks, body)
            }
            return
        }
        if r.found {
            // `modifyFlat`, written out: through its closure, which is not inlined here, a
            // reducer's `state.count = …` would cost more at every action.
            if Record.flatIsBareArray {
                try withUnsafeMutablePointer(to: &storage) { (p: UnsafeMutablePointer<Storage>) throws(E) in
                    try body(&UnsafeMutableRawPointer(p).assumingMemoryBound(to: [Entry].self).pointee[r.index].value)
                }
                return
            }
            guard case .flat(var entries) = storage else { return }
            storage = .flat([])
            defer { storage = .flat(entries) }
            try body(&entries[r.index].value)
        } else {
            var value = Value.null
            try body(&value)
            insert(key, value, at: r.index)
        }
    }

    /// Runs `body` on a flat record's entries in place.
    ///
    /// Swift cannot write an enum's payload where it is: taken out, the array would be shared
    /// with the record and copied on write. Where `.flat(entries)` is laid out as the bare
    /// array (``flatIsBareArray``), `body` writes the array through the record's own word;
    /// otherwise the record stands as `.flat([])` while `body` runs on the array taken out.
    /// That stand-in retains and releases the shared empty array, whose immortal count
    /// takes the runtime's other branch: two mispredicted branches an action.
    @usableFromInline @inline(__always)
    mutating func modifyFlat<R, E: Error>(_ body: (inout [Entry]) throws(E) -> R) throws(E) -> R {
        if Record.flatIsBareArray, case .flat = storage {
            return try withUnsafeMutablePointer(to: &storage) { (p: UnsafeMutablePointer<Storage>) throws(E) in
                try body(&UnsafeMutableRawPointer(p).assumingMemoryBound(to: [Entry].self).pointee)
            }
        }
        guard case .flat(var entries) = storage else {
            // Callers look first; a chunked record has no flat entries to give, and a typed
            // one is made flat before any write reaches here.
            assert(!isTyped, "a write to a typed record that was not made flat first")
            var none: [Entry] = []
            return try body(&none)
        }
        storage = .flat([])
        defer { storage = .flat(entries) }
        return try body(&entries)
    }

    /// Whether a `.flat(entries)` storage starts with the array's own word, bit for bit, and
    /// the rest of it is the same whatever the array: then writing the array through the
    /// storage's address leaves a `.flat` storage of the new array.
    ///
    /// (The first case's tag is 0, in bits of the storage that an array's word does not use.)
    /// Checked once, on values made here, rather than assumed; where it does not hold,
    /// ``modifyFlat(_:)`` takes the array out instead.
    @usableFromInline static let flatIsBareArray: Bool = {
        guard MemoryLayout<[Entry]>.size == MemoryLayout<UInt>.size else { return false }
        let one = [Entry(key: "k", value: .null)]
        let two = [Entry(key: "j", value: .null), Entry(key: "k", value: .null)]
        func bytes(_ value: some Any) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        let (flatOne, flatTwo) = (bytes(Storage.flat(one)), bytes(Storage.flat(two)))
        let word = MemoryLayout<UInt>.size
        return flatOne.count >= word && flatOne.prefix(word).elementsEqual(bytes(one))
            && flatTwo.prefix(word).elementsEqual(bytes(two)) && flatOne.dropFirst(word) == flatTwo.dropFirst(word)
    }()

    /// Runs `body` on a chunked record's chunk list in place; a list left with one chunk
    /// makes the record flat again.
    @usableFromInline
    mutating func modifyChunks<R, E: Error>(_ body: (inout [[Entry]]) throws(E) -> R) throws(E) -> R {
        guard case .chunked(var chunks) = storage else {
            var none: [[Entry]] = []
            return try body(&none)
        }
        storage = .flat([])
        defer { storage = chunks.count == 1 ? .flat(chunks[0]) : .chunked(chunks) }
        return try body(&chunks)
    }

    /// Inserts an entry into a flat record at `index`, where the search put it; a record
    /// that would outgrow `flatCapacity` becomes chunked.
    @usableFromInline
    mutating func insert(_ key: String, _ value: consuming Value, at index: Int) {
        assert(!isTyped, "an insertion into a typed record that was not made flat first")
        if case .flat(let entries) = storage, entries.count >= Record.flatCapacity {
            storage = .chunked(Record.chunked(entries))
            let entry = Entry(key: key, value: value)
            modifyChunks { chunks in Record.insert(entry, in: &chunks) }
            return
        }
        let entry = Entry(key: key, value: value)
        modifyFlat { entries in Record.insert(entry, at: index, in: &entries) }
    }

    /// Inserts `entry` into sorted `entries` at `index`.
    ///
    /// A few entries are appended and moved down by swaps: `Array.insert` goes through the
    /// generic `replaceSubrange`, several times slower for the few entries of most records.
    /// Past those, each swap retains and releases the entry's key and value, and the move that
    /// `insert` makes at once is the cheaper.
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
        untype()
        guard let r = flatPosition(of: key) else {
            let entry = Entry(key: key, value: value)
            return modifyChunks { chunks in Record.insertIfAbsent(entry, in: &chunks) }
        }
        if r.found { return false }
        insert(key, value, at: r.index)
        return true
    }

    /// Where `key` is in a flat record, or where it would be inserted; `nil` for a chunked
    /// record.
    ///
    /// A key already in a small record is found as the getter finds it, by a scan: the ordered
    /// search is only needed to insert (as a reducer's `state.count = …` does only the first
    /// time).
    ///
    /// A function of its own, so that the entries it reads are let go before the caller
    /// writes them: held, they would be shared, and the write would copy them all.
    @inlinable @inline(__always)
    func flatPosition(of key: String) -> (index: Int, found: Bool)? {
        guard case .flat(let entries) = storage else { return nil }
        if entries.count <= 8 {
            for i in entries.indices where Record.sameKey(entries[i].key, key) { return (i, true) }
        }
        return Record.search(key, in: entries)
    }

    /// The index of `key` in sorted `entries`, or where it would be inserted.
    @usableFromInline
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

    /// The value of `key`, or `nil` if it is absent.
    ///
    /// Setting `nil` removes the key.
    ///
    /// Inlinable: the interpreter reads a field of a small record several times per action,
    /// and a call across modules costs more than the look-up itself.
    public subscript(key: String) -> Value? {
        @inlinable get {
            switch storage {
            case .flat(let entries):
                // Small records: a linear scan is faster than a binary search.
                if entries.count <= 8 {
                    // By index: iterating the entries would copy (retain and release) every
                    // value passed over.
                    for i in entries.indices where Record.sameKey(entries[i].key, key) { return entries[i].value }
                    return nil
                }
                let r = Record.search(key, in: entries)
                // Not `found ? value : nil`: `Value` is `ExpressibleByNilLiteral`, so that
                // `nil` would be `Value.null`, and an absent key of a record of more than 8
                // keys would read as present.
                guard r.found else { return nil }
                return entries[r.index].value
            case .chunked(let chunks):
                return Record.value(forKey: key, in: chunks)
            case .typed(let type):
                return Record.sameKey(key, Record.typeKey) ? .string(type) : nil
            }
        }
        set {
            untype()
            guard let r = flatPosition(of: key) else {
                modifyChunks { chunks in Record.setValue(newValue, forKey: key, in: &chunks) }
                return
            }
            if let v = newValue {
                if r.found { modifyFlat { $0[r.index].value = v } } else { insert(key, v, at: r.index) }
            } else if r.found {
                modifyFlat { _ = $0.remove(at: r.index) }
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

    /// The string `type` of an action: ``string(forKey:)`` of `type`, read first from a
    /// record kept as its type alone.
    ///
    /// ```swift
    /// Record(type: "ping").actionType  // "ping"
    /// ```
    @inlinable @inline(__always)
    public var actionType: String? {
        if case .typed(let type) = storage { return type }
        return string(forKey: Record.typeKey)
    }

    /// Runs `body` on the value of `key` where it lies, without copying it out: the subscript
    /// copies the whole value and destroys it again, and an action's `type` is read several
    /// times per dispatch.
    ///
    /// ```swift
    /// let action: Record = ["type": "add"]
    /// action.withValue(forKey: "type") { if case .string = $0 { true } else { false } }  // true
    /// ```
    ///
    /// - Returns: what `body` returns, or `nil` if the key is absent.
    @inlinable @inline(__always)
    public func withValue<R>(forKey key: String, _ body: (Value) -> R) -> R? {
        switch storage {
        case .flat(let entries):
            if entries.count <= 8 {
                for i in entries.indices where Record.sameKey(entries[i].key, key) { return body(entries[i].value) }
                return nil
            }
            let r = Record.search(key, in: entries)
            guard r.found else { return nil }
            return body(entries[r.index].value)
        case .chunked(let chunks):
            guard let value = Record.value(forKey: key, in: chunks) else { return nil }
            return body(value)
        case .typed(let type):
            return Record.sameKey(key, Record.typeKey) ? body(.string(type)) : nil
        }
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
