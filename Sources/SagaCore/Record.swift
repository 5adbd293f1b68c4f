/// The record value: string keys to values, kept sorted by Unicode scalar value. Keys are
/// compared by their scalars too (not by Swift's canonical equivalence), so that order and
/// equality agree.
///
/// Records in sagas are small (an action, a slice of state), so a sorted array beats a
/// hash table: lookups are a binary search over a few keys, canonical JSON writes the
/// entries as they are, and equality is one pass.
public struct Record: Sendable {
    /// The entries, sorted by key (Unicode scalar order, which is UTF-8 byte order).
    public private(set) var entries: [Entry]

    /// An empty record.
    public init() { entries = [] }

    /// An empty record with room for `capacity` keys: a record built key by key otherwise
    /// reallocates its storage as it grows (a third of the cost of building a small record).
    public init(minimumCapacity capacity: Int) {
        entries = []
        entries.reserveCapacity(capacity)
    }

    /// A record of the given entries; a later duplicate key wins.
    @inlinable
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, Value) {
        self.init(minimumCapacity: pairs.underestimatedCount)
        for (k, v) in pairs { self[k] = v }
    }

    /// Entries already sorted by key with no duplicates (the JSON reader and joins use this).
    public init(sortedEntries: [Entry]) {
        entries = sortedEntries
    }

    /// Entries in any order, sorted here: for the few entries of an action, one insertion
    /// sort of the array is much cheaper than setting the keys one by one (a search and an
    /// insertion each). Of two entries with the same key, the later one wins.
    ///
    /// - Complexity: O(n²) comparisons at worst (entries in reverse order); meant for the
    ///   handful of keys a literal or an action has.
    public init(unsortedEntries: consuming [Entry]) {
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
        entries = unsortedEntries
    }

    /// The number of keys.
    @inlinable public var count: Int { entries.count }

    /// `true` when the record has no keys.
    @inlinable public var isEmpty: Bool { entries.isEmpty }

    /// The keys in sorted order.
    public var keys: [String] { entries.map(\.key) }

    /// The values in key order.
    public var values: [Value] { entries.map(\.value) }

    /// Compares keys by Unicode scalar value (the order of their UTF-8 bytes).
    @inlinable
    public static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        compareKeys(a, b) < 0
    }

    /// Orders two keys by their UTF-8 bytes: negative when `a` comes first, 0 when they are
    /// the same, positive when `b` does. One pass serves the binary search, which asked
    /// `sameKey` and then `keyPrecedes` at each step (two thirds of a reducer updating one
    /// field of a 1,000-field state, callgrind).
    @inlinable
    public static func compareKeys(_ a: String, _ b: String) -> Int {
        sameBits(a, b) ? 0 : compareBytes(a, b)
    }

    /// Whether two keys are the same Unicode scalars (byte-equal UTF-8): their byte counts
    /// (stored, so O(1)) first, then their bytes in place. Not Swift's `==`, which accepts
    /// canonically equivalent spellings and cost twice as much here (callgrind, the
    /// every-select-put workload, where keys are compared 18 times per action).
    ///
    /// Two small strings are the same only if their bits are: a small string's bits are its
    /// bytes and its count (``compareSmall(_:_:)``). Telling so ends most misses (a record's
    /// other keys, looked past for its `type`) without reading either count (callgrind,
    /// sagarun-every-select-put).
    @inlinable
    public static func sameKey(_ a: String, _ b: String) -> Bool {
        if sameBits(a, b) { return true }
        if bothSmall(a, b) { return false }
        guard a.utf8.count == b.utf8.count else { return false }
        return compareBytes(a, b) == 0
    }

    /// Whether both strings are small (inline): see ``compareSmall(_:_:)`` for their form.
    @inlinable @inline(__always)
    static func bothSmall(_ a: String, _ b: String) -> Bool {
        #if _endian(little)
        guard MemoryLayout<String>.size == 16 else { return false }
        let a1 = unsafeBitCast(a, to: (UInt64, UInt64).self).1
        let b1 = unsafeBitCast(b, to: (UInt64, UInt64).self).1
        return (a1 >> 60) & 0b1011 == 0b1010 && (b1 >> 60) & 0b1011 == 0b1010
        #else
        return false
        #endif
    }

    /// The same bits are the same string: the same small (inline) string, or the same
    /// storage. Keys are mostly small, so most matches end here without a byte compare.
    @inlinable
    static func sameBits(_ a: String, _ b: String) -> Bool {
        MemoryLayout<String>.size == 16
            && unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
    }

    /// Orders two strings by their UTF-8 bytes, over the bytes in place:
    /// `utf8.lexicographicallyPrecedes` and `elementsEqual` went through the generic iterator
    /// (7% of reopening a store, 4% of every-select-put: callgrind).
    @inlinable
    static func compareBytes(_ a: String, _ b: String) -> Int {
        if let order = compareSmall(a, b) { return order }
        let ua = a.utf8
        let ub = b.utf8
        let inPlace = ua.withContiguousStorageIfAvailable { pa in
            ub.withContiguousStorageIfAvailable { pb in
                let n = Swift.min(pa.count, pb.count)
                for i in 0..<n where pa[i] != pb[i] { return pa[i] < pb[i] ? -1 : 1 }
                return pa.count - pb.count
            }
        }
        if let inPlace, let order = inPlace { return order }
        if ua.elementsEqual(ub) { return 0 }
        return ua.lexicographicallyPrecedes(ub) ? -1 : 1
    }

    /// Orders two small (inline) strings by their UTF-8 bytes, read from the strings' own
    /// bits; `nil` unless both are small. A small string keeps its bytes in its two words, in
    /// order from the low byte (zeros past its end), and in the top byte of the second word its
    /// form (`1?10` in the top four bits: immortal, small) and its byte count; read as
    /// big-endian numbers, the words order as the bytes do, and a tie leaves the shorter
    /// first. The binary search of a large record compares keys this way: spilling each
    /// small string to the stack to compare its bytes (`withContiguousStorageIfAvailable`) was
    /// a third of a reducer updating one field of a 1,000-field state (callgrind, wide-state).
    @inlinable @inline(__always)
    static func compareSmall(_ a: String, _ b: String) -> Int? {
        #if _endian(little)
        guard MemoryLayout<String>.size == 16 else { return nil }
        let (a0, a1) = unsafeBitCast(a, to: (UInt64, UInt64).self)
        let (b0, b1) = unsafeBitCast(b, to: (UInt64, UInt64).self)
        guard bothSmall(a, b) else { return nil }
        if a0 != b0 { return a0.byteSwapped < b0.byteSwapped ? -1 : 1 }
        let bytes: UInt64 = 0x00FF_FFFF_FFFF_FFFF
        let (x, y) = ((a1 & bytes).byteSwapped, (b1 & bytes).byteSwapped)
        if x != y { return x < y ? -1 : 1 }
        return Int((a1 >> 56) & 0xF) - Int((b1 >> 56) & 0xF)
        #else
        return nil
        #endif
    }

    /// Runs `body` on the value of `key` in place (`.null` if absent, then inserted), so a
    /// nested update does not copy the record's other values.
    public mutating func modifyValue<E: Error>(
        forKey key: String, _ body: (inout Value) throws(E) -> Void
    ) throws(E) {
        let r = search(key)
        if r.found {
            try body(&entries[r.index].value)
        } else {
            var value = Value.null
            try body(&value)
            insert(key, value, at: r.index)
        }
    }

    /// Inserts an entry at `index` by appending it and moving it down: `Array.insert` went
    /// through the generic `replaceSubrange`, several times slower for the few entries a
    /// record has (callgrind, the persistence reducer).
    @usableFromInline
    mutating func insert(_ key: String, _ value: consuming Value, at index: Int) {
        entries.append(Entry(key: key, value: value))
        var i = entries.count - 1
        while i > index {
            entries.swapAt(i, i - 1)
            i -= 1
        }
    }

    /// Adds `key` unless the record has it already; one search for both.
    ///
    /// - Returns: `false` (and the record unchanged) when `key` is there.
    public mutating func insertIfAbsent(_ key: String, _ value: consuming Value) -> Bool {
        let r = search(key)
        if r.found { return false }
        insert(key, value, at: r.index)
        return true
    }

    /// The index of `key`, or where it would be inserted.
    @usableFromInline
    func search(_ key: String) -> (index: Int, found: Bool) {
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
            // Small records: a linear scan is faster than a binary search.
            if entries.count <= 8 {
                // By index: iterating the entries would copy (retain and release) every value
                // passed over.
                for i in entries.indices where Record.sameKey(entries[i].key, key) { return entries[i].value }
                return nil
            }
            let r = search(key)
            // Not `found ? value : nil`: `Value` is `ExpressibleByNilLiteral`, so that `nil`
            // would be `Value.null`, and an absent key of a record of more than 8 keys would
            // read as present.
            guard r.found else { return nil }
            return entries[r.index].value
        }
        set {
            // A key already there, in a small record, is found as the getter finds it: the
            // ordered search is only needed to insert (callgrind, every-select-put: a reducer's
            // `state.count = …`).
            if let v = newValue, entries.count <= 8 {
                for i in entries.indices where Record.sameKey(entries[i].key, key) {
                    entries[i].value = v
                    return
                }
            }
            let r = search(key)
            if let v = newValue {
                if r.found { entries[r.index].value = v } else { insert(key, v, at: r.index) }
            } else if r.found {
                entries.remove(at: r.index)
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
        // The subscript copies the whole value out and destroys it again; an action's `type`
        // is read several times per dispatch (callgrind, every-select-put).
        if entries.count <= 8 {
            for i in entries.indices where Record.sameKey(entries[i].key, key) {
                if case .string(let s) = entries[i].value { return s }
                return nil
            }
            return nil
        }
        let r = search(key)
        guard r.found, case .string(let s) = entries[r.index].value else { return nil }
        return s
    }

    /// This record with `other`'s entries added; `other`'s keys win.
    public func merging(_ other: Record) -> Record {
        if other.isEmpty { return self }
        if isEmpty { return other }
        var out: [Entry] = []
        out.reserveCapacity(entries.count + other.entries.count)
        var i = 0
        var j = 0
        while i < entries.count, j < other.entries.count {
            let a = entries[i]
            let b = other.entries[j]
            let order = Record.compareKeys(a.key, b.key)
            if order == 0 {
                out.append(b)
                i += 1
                j += 1
            } else if order < 0 {
                out.append(a)
                i += 1
            } else {
                out.append(b)
                j += 1
            }
        }
        out.append(contentsOf: entries[i...])
        out.append(contentsOf: other.entries[j...])
        return Record(sortedEntries: out)
    }
}

extension Record: Equatable {
    public static func == (lhs: Record, rhs: Record) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        // The same storage is equal without a walk (as `Array`'s `==` does): a value whose parts
        // are shared (`r = {a: r, b: r}`, repeated) would take exponential time otherwise.
        let same = lhs.entries.withUnsafeBufferPointer { a in
            rhs.entries.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress }
        }
        if same { return true }
        for (a, b) in zip(lhs.entries, rhs.entries) where !Record.sameKey(a.key, b.key) || a.value != b.value {
            return false
        }
        return true
    }
}

extension Record: Hashable {
    /// Hashes a bounded part of the record, as ``Value/hash(into:)`` does.
    public func hash(into hasher: inout Hasher) {
        var budget = Value.hashedValues
        hash(into: &hasher, budget: &budget)
    }

    func hash(into hasher: inout Hasher, budget: inout Int) {
        hasher.combine(entries.count)
        for e in entries {
            guard budget > 0 else { return }
            hasher.combine(e.key)
            e.value.hash(into: &hasher, budget: &budget)
        }
    }
}

extension Record: ExpressibleByDictionaryLiteral {
    /// A record of the given entries; a later duplicate key wins.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }
}
