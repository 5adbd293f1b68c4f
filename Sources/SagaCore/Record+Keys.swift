extension Record {
    /// Compares keys by Unicode scalar value (the order of their UTF-8 bytes).
    @inlinable
    public static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        compareKeys(a, b) < 0
    }

    /// Orders two keys by their UTF-8 bytes: negative when `a` comes first, 0 when they are
    /// the same, positive when `b` does.
    ///
    /// One pass serves the binary search, which would otherwise ask `sameKey` and then
    /// `keyPrecedes` at each step.
    @inlinable
    public static func compareKeys(_ a: String, _ b: String) -> Int {
        sameBits(a, b) ? 0 : compareBytes(a, b)
    }

    /// Whether two keys are the same Unicode scalars (byte-equal UTF-8): their byte counts
    /// (stored, so O(1)) first, then their bytes in place.
    ///
    /// Not Swift's `==`, which accepts canonically equivalent spellings and costs more here,
    /// where keys are compared many times per action.
    ///
    /// Two small strings are the same only if their bits are: a small string's bits are its
    /// bytes and its count (`compareSmall(_:_:)`). Telling so ends most misses (a record's
    /// other keys, looked past for its `type`) without reading either count.
    @inlinable
    public static func sameKey(_ a: String, _ b: String) -> Bool {
        if sameBits(a, b) { return true }
        if bothSmall(a, b) { return false }
        guard a.utf8.count == b.utf8.count else { return false }
        return compareBytes(a, b) == 0
    }

    /// Whether both strings are small (inline): see `compareSmall(_:_:)` for their form.
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

    /// The same bits are the same string: the same small (inline) string, or the same storage.
    ///
    /// Keys are mostly small, so most matches end here without a byte compare.
    @inlinable
    static func sameBits(_ a: String, _ b: String) -> Bool {
        MemoryLayout<String>.size == 16
            && unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
    }

    /// Orders two strings by their UTF-8 bytes, over the bytes in place:
    /// `utf8.lexicographicallyPrecedes` and `elementsEqual` go through the generic iterator.
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
    /// bits; `nil` unless both are small.
    ///
    /// A small string keeps its bytes in its two words, in order from the low byte (zeros past
    /// its end), and in the top byte of the second word its form (`1?10` in the top four bits:
    /// immortal, small) and its byte count; read as big-endian numbers, the words order as the
    /// bytes do, and a tie leaves the shorter first. The binary search of a large record
    /// compares keys this way: spilling each small string to the stack to compare its bytes
    /// (`withContiguousStorageIfAvailable`) would be a large part of a reducer updating one
    /// field of a wide state.
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
}
