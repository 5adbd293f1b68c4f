/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), slicing-by-8: the checksum of every
/// header and record of the file store.
///
/// `CRC32C.checksum("123456789")` is 0xE3069283.
enum CRC32C {
    /// Eight tables of 256 entries: table k gives the CRC of a byte followed by k zero bytes.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 {
                let prev = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// The CRC of `bytes`, continuing from `crc` (the CRC of what came before, 0 to start).
    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c = ~crc
        tables.withUnsafeBufferPointer { t in
            guard var p = bytes.baseAddress else { return }
            var n = bytes.count
            while n >= 8 {
                let lo = UInt32(p.loadUnaligned(as: UInt32.self).littleEndian) ^ c
                let hi = UInt32(p.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                p += 8
                n -= 8
            }
            while n > 0 {
                c = (c >> 8) ^ t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xFF)]
                p += 1
                n -= 1
            }
        }
        return ~c
    }

    /// The CRC of `bytes`, continuing from `crc`.
    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { update(crc, $0) }
    }

    /// The CRC of a string's UTF-8 bytes.
    static func checksum(_ text: String) -> UInt32 {
        update(0, Array(text.utf8))
    }
}
