/// The identifiers of a program, each kept once and numbered from 0 in the order first met.
///
/// The parser asks it for an identifier's `String` instead of decoding the source bytes at
/// each occurrence, and stores the number in ``Variable/nameID``; the checker then finds a
/// variable's declaration by that number, in an array, instead of hashing its name in every
/// scope operation. One interner serves every file of a program, so that a number means one
/// name throughout.
struct NameInterner {
    /// Each number's name.
    private(set) var names: [String] = []
    /// Each number's UTF-8 bytes, end to end: those of `id` run from `starts[id]` to
    /// `starts[id + 1]`, compared without making a `String` of the bytes looked up.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    /// Each number's ``hash(_:)``, compared before the bytes are.
    private var hashes: [UInt64] = []
    /// Open addressing by hash: each slot holds a number + 1, or 0 when empty; at most half full.
    private var slots: [Int32] = Array(repeating: 0, count: 64)

    /// How many names have numbers.
    var count: Int { names.count }

    /// The name numbered `id` (which must be below ``count``).
    @inline(__always)
    func name(_ id: Int32) -> String {
        names[Int(id)]
    }

    /// The number of `name`, given its UTF-8 bytes, numbering it if it is new.
    ///
    /// Inlined, with the numbering of a new name out of line: the parser looks up every name
    /// it meets here, and a call (with a copy of the interner for `find`) would be a large
    /// part of a look-up.
    @inline(__always)
    mutating func intern(_ name: UnsafeBufferPointer<UInt8>) -> Int32 {
        let hash = NameInterner.hash(name)
        let (found, slot) = find(name, hash: hash)
        if found >= 0 { return found }
        return add(name, hash: hash, slot: slot)
    }

    /// Numbers the new `name`, whose ``hash(_:)`` is `hash`, in the empty slot `slot`.
    @inline(never)
    private mutating func add(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64, slot: Int) -> Int32 {
        let id = Int32(names.count)
        names.append(String(decoding: name, as: UTF8.self))
        bytes.append(contentsOf: name)
        starts.append(bytes.count)
        hashes.append(hash)
        slots[slot] = id + 1
        if names.count * 2 > slots.count { grow() }
        return id
    }

    /// Numbers here every name `other` numbers, and returns, by `other`'s number, the number
    /// here: how a piece of a file, parsed on a thread with an interner of its own
    /// (Parser+Pieces.swift), joins the program's numbering (``SourceUnit/nameMap``).
    mutating func adopt(_ other: NameInterner) -> [Int32] {
        var map: [Int32] = []
        map.reserveCapacity(other.count)
        for name in other.names { map.append(intern(name)) }
        return map
    }

    /// The number of `name`, numbering it if it is new.
    mutating func intern(_ name: String) -> Int32 {
        var name = name
        return name.withUTF8 { intern($0) }
    }

    /// The number of `name`, whose ``hash(_:)`` is `hash`, or -1 and the empty slot where it
    /// would go.
    ///
    /// Through buffer pointers, since every name of the program is looked up here: the arrays'
    /// bounds checks would be most of a look-up. The slot index is masked, and a stored number
    /// and its bytes are in range by construction.
    @inline(__always)
    private func find(_ name: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (id: Int32, slot: Int) {
        slots.withUnsafeBufferPointer { slots in
            hashes.withUnsafeBufferPointer { hashes in
                starts.withUnsafeBufferPointer { starts in
                    bytes.withUnsafeBufferPointer { bytes in
                        let mask = slots.count - 1
                        var slot = Int(truncatingIfNeeded: hash >> 1) & mask
                        while true {
                            let stored = slots[slot]
                            if stored == 0 { return (-1, slot) }
                            let id = Int(stored - 1)
                            let start = starts[id]
                            if hashes[id] == hash, starts[id + 1] - start == name.count {
                                var i = 0
                                while i < name.count, bytes[start + i] == name[i] { i += 1 }
                                if i == name.count { return (Int32(id), slot) }
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
        }
    }

    /// Doubles the slots and puts every number back.
    private mutating func grow() {
        let capacity = slots.count * 2
        slots = Array(repeating: 0, count: capacity)
        let mask = capacity - 1
        for id in hashes.indices {
            var slot = Int(truncatingIfNeeded: hashes[id] >> 1) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id + 1)
        }
    }

    /// FNV-1a of the bytes, with the high half folded into the low bits (which pick the slot).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash ^ (hash >> 29)
    }
}
