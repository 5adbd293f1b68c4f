extension Record: Sequence {
    /// Walks a record's entries in key order, flat or chunked.
    public struct Iterator: IteratorProtocol {
        /// A small record's entries, or a large record's current chunk.
        @usableFromInline var entries: [Entry]
        /// A large record's chunks; empty for a small one.
        @usableFromInline let chunks: [[Entry]]
        @usableFromInline var chunk = 0
        @usableFromInline var index = 0

        @inlinable
        init(_ record: Record) {
            switch record.storage {
            case .flat(let entries):
                self.entries = entries
                chunks = []
            case .chunked(let chunks):
                entries = []
                self.chunks = chunks
            case .typed:
                entries = record.run(0)
                chunks = []
            }
        }

        /// The next entry, or `nil` past the last.
        @inlinable
        public mutating func next() -> Entry? {
            if index < entries.count {
                defer { index &+= 1 }
                return entries[index]
            }
            while chunk < chunks.count {
                entries = chunks[chunk]
                chunk &+= 1
                index = 0
                if !entries.isEmpty {
                    defer { index &+= 1 }
                    return entries[0]
                }
            }
            return nil
        }
    }

    /// The entries in key order.
    @inlinable
    public func makeIterator() -> Iterator { Iterator(self) }

    /// The number of keys.
    @inlinable
    public var underestimatedCount: Int { count }

    /// The first entry in key order, or `nil` for an empty record.
    public var first: Entry? {
        switch storage {
        case .flat(let entries): return entries.first
        case .chunked(let chunks): return chunks.first?.first
        case .typed(let type): return Record.typeEntry(type)
        }
    }

    /// The address of the record's storage while the record lives: two records with the same
    /// one are equal, and a walk over a value whose parts are shared can tell them by it.
    ///
    /// `nil` for a record with no storage of its own (`{type: "…"}`, kept as its string).
    public var storageIdentity: UnsafeRawPointer? {
        switch storage {
        case .flat(let entries):
            return entries.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        case .chunked(let chunks):
            return chunks.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        case .typed:
            return nil
        }
    }

    /// How many sorted runs the entries are in: one for a small record, its chunks for a large
    /// one.
    ///
    /// A walk over the runs by index reads each entry where it lies; the iterator copies each
    /// entry out (a retain and a release each).
    @inlinable var runCount: Int {
        if case .chunked(let chunks) = storage { return chunks.count }
        return 1
    }

    /// The `k`th sorted run of entries (see ``runCount``).
    ///
    /// A typed record's one entry is made here, as an array of its own.
    @inlinable func run(_ k: Int) -> [Entry] {
        switch storage {
        case .flat(let entries): return entries
        case .chunked(let chunks): return chunks[k]
        case .typed(let type): return [Record.typeEntry(type)]
        }
    }

    /// A small record's entries; empty for a large one (for tests and cold paths).
    var flat: [Entry] {
        if case .chunked = storage { return [] }
        return run(0)
    }

    /// Whether the record is `{type: "…"}` kept as its string (for tests and assertions).
    var isTyped: Bool {
        if case .typed = storage { return true }
        return false
    }

    /// A large record's chunks; empty for a small one (for tests and cold paths).
    var chunks: [[Entry]] {
        if case .chunked(let chunks) = storage { return chunks }
        return []
    }
}
