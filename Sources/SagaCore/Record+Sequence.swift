extension Record: Sequence {
    /// Walks a record's entries in key order, flat or chunked.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let flat: [Entry]
        @usableFromInline let chunks: [[Entry]]
        @usableFromInline var chunk = 0
        @usableFromInline var index = 0

        @inlinable
        init(_ record: Record) {
            flat = record.flat
            chunks = record.chunks
        }

        /// The next entry, or `nil` past the last.
        @inlinable
        public mutating func next() -> Entry? {
            if chunks.isEmpty {
                guard index < flat.count else { return nil }
                defer { index &+= 1 }
                return flat[index]
            }
            while chunk < chunks.count {
                if index < chunks[chunk].count {
                    defer { index &+= 1 }
                    return chunks[chunk][index]
                }
                chunk &+= 1
                index = 0
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
        chunks.isEmpty ? flat.first : chunks.first?.first
    }

    /// The address of the record's storage while the record lives: two records with the same
    /// one are equal, and a walk over a value whose parts are shared can tell them by it.
    public var storageIdentity: UnsafeRawPointer? {
        if chunks.isEmpty {
            return flat.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
        }
        return chunks.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }
}
