/// A large record: its entries in sorted chunks.
///
/// A new key goes into the one chunk its place falls in, which splits in two past
/// ``Record/chunkCapacity``; a removed key leaves its chunk, which joins a neighbour when it
/// runs low. So adding or removing a key moves at most a chunk's entries, plus, when a chunk
/// splits or goes, the chunk list (a pointer a chunk). Finding a key is a binary search over
/// the chunks' last keys, then one within the chunk.
///
/// Copying a large record copies the chunk list only; the chunks are shared until written,
/// and writing one key copies only its chunk.
extension Record {
    /// Most entries a chunk holds.
    @usableFromInline static var chunkCapacity: Int { 256 }

    /// Most entries a flat record holds: one more key, and it becomes chunked.
    @usableFromInline static var flatCapacity: Int { chunkCapacity }

    /// Sorted entries cut into half-full chunks, leaving each room to grow.
    static func chunked(_ sorted: [Entry]) -> [[Entry]] {
        let size = chunkCapacity / 2
        return stride(from: 0, to: sorted.count, by: size).map { start in
            Array(sorted[start..<Swift.min(start + size, sorted.count)])
        }
    }

    /// The number of keys of a chunked record.
    @usableFromInline var chunkedCount: Int {
        var n = 0
        for i in chunks.indices { n &+= chunks[i].count }
        return n
    }

    /// Where `key` is in a chunked record, or where it would be inserted: the first chunk
    /// whose last key is not before it (the last chunk when every key is before it), and the
    /// index in that chunk.
    func locate(_ key: String) -> (chunk: Int, index: Int, found: Bool) {
        var lo = 0
        var hi = chunks.count &- 1
        while lo < hi {
            let mid = (lo &+ hi) >> 1
            // Chunks are never empty.
            let last = chunks[mid].count &- 1
            if Record.compareKeys(chunks[mid][last].key, key) < 0 { lo = mid &+ 1 } else { hi = mid }
        }
        let r = Record.search(key, in: chunks[lo])
        return (lo, r.index, r.found)
    }

    /// The value of `key` in a chunked record.
    @usableFromInline
    func chunkedValue(forKey key: String) -> Value? {
        let at = locate(key)
        guard at.found else { return nil }
        return chunks[at.chunk][at.index].value
    }

    /// Sets or (with `nil`) removes `key` in a chunked record.
    @usableFromInline
    mutating func setChunkedValue(_ value: Value?, forKey key: String) {
        let at = locate(key)
        if let value {
            if at.found {
                chunks[at.chunk][at.index].value = value
            } else {
                insertChunked(Entry(key: key, value: value), at: at)
            }
        } else if at.found {
            removeChunked(at: at)
        }
    }

    /// Runs `body` on the value of `key` in place, in a chunked record.
    mutating func modifyChunkedValue<E: Error>(
        forKey key: String, _ body: (inout Value) throws(E) -> Void
    ) throws(E) {
        let at = locate(key)
        if at.found {
            try body(&chunks[at.chunk][at.index].value)
        } else {
            var value = Value.null
            try body(&value)
            insertChunked(Entry(key: key, value: value), at: at)
        }
    }

    /// Adds `key` to a chunked record unless it is there.
    mutating func insertChunkedIfAbsent(_ key: String, _ value: consuming Value) -> Bool {
        let at = locate(key)
        if at.found { return false }
        insertChunked(Entry(key: key, value: value), at: at)
        return true
    }

    /// Adds `key`, which the record does not have, to a chunked record.
    mutating func insertChunked(_ key: String, _ value: consuming Value) {
        insertChunked(Entry(key: key, value: value), at: locate(key))
    }

    /// Inserts `entry` where ``locate(_:)`` put it, splitting a chunk that outgrows
    /// ``chunkCapacity``.
    private mutating func insertChunked(_ entry: consuming Entry, at: (chunk: Int, index: Int, found: Bool)) {
        Record.insert(entry, at: at.index, in: &chunks[at.chunk])
        let n = chunks[at.chunk].count
        guard n > Record.chunkCapacity else { return }
        let upper = Array(chunks[at.chunk][(n / 2)...])
        chunks[at.chunk].removeSubrange((n / 2)...)
        chunks.insert(upper, at: at.chunk &+ 1)
    }

    /// Removes the entry at `at`. A chunk left with under a quarter of ``chunkCapacity``
    /// joins a neighbour that has room, so that chunks stay full enough to keep the chunk
    /// list short; a record left with one chunk becomes flat again.
    private mutating func removeChunked(at: (chunk: Int, index: Int, found: Bool)) {
        let c = at.chunk
        chunks[c].remove(at: at.index)
        let n = chunks[c].count
        if n == 0 {
            chunks.remove(at: c)
        } else if n < Record.chunkCapacity / 4 {
            if c > 0, chunks[c &- 1].count &+ n <= Record.chunkCapacity {
                let moved = chunks.remove(at: c)
                chunks[c &- 1].append(contentsOf: moved)
            } else if c &+ 1 < chunks.count, chunks[c &+ 1].count &+ n <= Record.chunkCapacity {
                let moved = chunks.remove(at: c &+ 1)
                chunks[c].append(contentsOf: moved)
            }
        }
        if chunks.count == 1 {
            flat = chunks.removeLast()
        }
    }
}
