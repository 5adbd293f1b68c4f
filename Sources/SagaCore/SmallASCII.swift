/// Short ASCII strings made straight from bytes in a buffer, and the scan that finds where
/// such a run of bytes ends, eight bytes at a time.
///
/// A small string holds up to 15 UTF-8 bytes in the `String` value itself, then a
/// discriminator byte (small, ASCII, immortal) with the count. `String(decoding:as:)` and
/// `String(unsafeUninitializedCapacity:…)` validate and build that value through calls that
/// cost far more for a short key than two word loads and shifts, and the JSON reader makes
/// two such strings per input action.
///
/// The layout is not a promise of the language, so it is checked once, against strings the
/// library made (``isAvailable``); where it differs, callers use the library's initialisers.
enum SmallASCII {
    /// The most bytes a small string holds.
    static let capacity = 15

    /// Whether ``string(in:_:)`` builds exactly the values the standard library builds here:
    /// compared bit for bit with library-made strings of every small length, read through
    /// each of the ways ``bits(in:_:)`` reads its bytes.
    static let isAvailable: Bool = {
        guard MemoryLayout<String>.size == 16, MemoryLayout<(UInt64, UInt64)>.size == 16 else { return false }
        let letters = Array("a/b-c_d.0e9F:Zg h~i\\jk".utf8)
        for count in 0...capacity {
            let sample = Array(letters[0..<count])
            let made = String(decoding: sample, as: UTF8.self)
            let expected = unsafeBitCast(made, to: (UInt64, UInt64).self)
            // Alone in its buffer, after 8 other bytes, and before 16 others.
            let padding = [UInt8](repeating: UInt8(ascii: "-"), count: 16)
            let placements = [(sample, 0), (padding[0..<8] + sample, 8), (sample + padding, 0)]
            for (buffer, offset) in placements {
                let same = buffer.withUnsafeBufferPointer { bits(in: $0, offset..<(offset + count)) == expected }
                guard same else { return false }
            }
        }
        return true
    }()

    /// The string of `buffer[range]`: at most ``capacity`` bytes, all ASCII, and only when
    /// ``isAvailable``.
    @inline(__always)
    static func string(in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        unsafeBitCast(bits(in: buffer, range), to: String.self)
    }

    /// The two words of the small ASCII string of `buffer[range]`: its bytes in memory order,
    /// and the count in the last byte under the discriminator `0xE0`.
    ///
    /// The bytes are read as whole words where the buffer has room around them (bytes outside
    /// the range are shifted out), one by one otherwise.
    @inline(__always)
    private static func bits(in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> (UInt64, UInt64) {
        let n = range.count
        var low: UInt64 = 0
        var high: UInt64 = 0
        if let base = buffer.baseAddress, n > 0 {
            let raw = UnsafeRawPointer(base)
            if n > 8 {
                low = word(raw, at: range.lowerBound)
                high = word(raw, at: range.upperBound &- 8) &>> UInt64((16 &- n) &* 8)
            } else if range.upperBound >= 8 {
                low = word(raw, at: range.upperBound &- 8) &>> UInt64((8 &- n) &* 8)
            } else if buffer.count &- range.lowerBound >= 8 {
                low = word(raw, at: range.lowerBound) & (~0 &>> UInt64((8 &- n) &* 8))
            } else {
                for i in 0..<n { low |= UInt64(buffer[range.lowerBound &+ i]) &<< UInt64(i &* 8) }
            }
        }
        high |= (0xE0 | UInt64(n)) &<< 56
        return (UInt64(littleEndian: low), UInt64(littleEndian: high))
    }

    /// The eight bytes at `offset`, the first in the lowest bits.
    @inline(__always)
    static func word(_ raw: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The bytes of `word` that end a plain run inside a JSON string (a quote, a backslash, a
    /// control character, a byte of a multi-byte sequence), flagged by their high bit.
    ///
    /// Exact at the lowest flagged byte, which is what callers use: a borrow can flag a byte
    /// above a true one, never below it.
    @inline(__always)
    static func stops(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let quote = zeros(word ^ (ones &* 0x22))
        let backslash = zeros(word ^ (ones &* 0x5C))
        let control = (word &- ones &* 0x20) & ~word & highs
        return quote | backslash | control | (word & highs)
    }
}
