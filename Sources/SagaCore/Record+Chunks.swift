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

    /// The number of keys in `chunks`.
    @usableFromInline
    static func count(of chunks: [[Entry]]) -> Int {
        var n = 0
        for i in chunks.indices { n &+= chunks[i].count }
        return n
    }

    /// Where `key` is in `chunks`, or where it would be inserted: the first chunk whose last
    /// key is not before it (the last chunk when every key is before it), and the index in
    /// that chunk.
    static func locate(_ key: String, in chunks: [[Entry]]) -> (chunk: Int, index: Int, found: Bool) {
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

    /// The value of `key` in `chunks`.
    @usableFromInline
    static func value(forKey key: String, in chunks: [[Entry]]) -> Value? {
        let at = locate(key, in: chunks)
        guard at.found else { return nil }
        return chunks[at.chunk][at.index].value
    }

    /// Sets or (with `nil`) removes `key` in `chunks`.
    @usableFromInline
    static func setValue(_ value: Value?, forKey key: String, in chunks: inout [[Entry]]) {
        let at = locate(key, in: chunks)
        if let value {
            if at.found {
                chunks[at.chunk][at.index].value = value
            } else {
                insert(Entry(key: key, value: value), at: at, in: &chunks)
            }
        } else if at.found {
            remove(at: at, in: &chunks)
        }
    }

    /// Runs `body` on the value of `key` in `chunks` in place (`.null` if absent, then
    /// inserted).
    @usableFromInline
    static func modifyValue<E: Error>(
        forKey key: String, in chunks: inout [[Entry]], _ body: (inout Value) throws(E) -> Void
    ) throws(E) {
        let at = locate(key, in: chunks)
        if at.found {
            try body(&chunks[at.chunk][at.index].value)
        } else {
            var value = Value.null
            try body(&value)
            insert(Entry(key: key, value: value), at: at, in: &chunks)
        }
    }

    /// Adds `entry` to `chunks` unless its key is there.
    static func insertIfAbsent(_ entry: consuming Entry, in chunks: inout [[Entry]]) -> Bool {
        let at = locate(entry.key, in: chunks)
        if at.found { return false }
        insert(entry, at: at, in: &chunks)
        return true
    }

    /// Adds `entry`, whose key `chunks` does not have.
    static func insert(_ entry: consuming Entry, in chunks: inout [[Entry]]) {
        let at = locate(entry.key, in: chunks)
        insert(entry, at: at, in: &chunks)
    }

    /// Inserts `entry` where ``locate(_:in:)`` put it, splitting a chunk that outgrows
    /// ``chunkCapacity``.
    private static func insert(
        _ entry: consuming Entry, at: (chunk: Int, index: Int, found: Bool), in chunks: inout [[Entry]]
    ) {
        Record.insert(entry, at: at.index, in: &chunks[at.chunk])
        let n = chunks[at.chunk].count
        guard n > Record.chunkCapacity else { return }
        let upper = Array(chunks[at.chunk][(n / 2)...])
        chunks[at.chunk].removeSubrange((n / 2)...)
        chunks.insert(upper, at: at.chunk &+ 1)
    }

    /// Removes the entry at `at`.
    ///
    /// A chunk left with under a quarter of ``chunkCapacity`` joins a neighbour that has room,
    /// so that chunks stay full enough to keep the chunk list short. (A list left with one
    /// chunk is made flat by ``modifyChunks(_:)``.)
    private static func remove(at: (chunk: Int, index: Int, found: Bool), in chunks: inout [[Entry]]) {
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
    }
}
