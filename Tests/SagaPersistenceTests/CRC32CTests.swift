import Testing

@testable import SagaPersistence

@Suite("CRC-32C")
struct CRC32CTests {
    @Test func knownVectors() {
        #expect(CRC32C.checksum("123456789") == 0xE306_9283)
        #expect(CRC32C.checksum("") == 0)
        // RFC 3720 B.4: 32 bytes of zeros.
        #expect(CRC32C.update(0, [UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.update(0, [UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
    }

    @Test func continuingEqualsOneShotAtEverySplit() {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let whole = CRC32C.update(0, bytes)
        for split in 0...bytes.count {
            #expect(CRC32C.update(CRC32C.update(0, Array(bytes[..<split])), Array(bytes[split...])) == whole)
        }
    }
}
