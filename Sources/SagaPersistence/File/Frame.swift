/// One framed record of a store file: `[length u32][crc u32][type u8][seq u64]?[payload]`.
///
/// Log frames carry a sequence number; snapshot frames do not (see ``StoreFormat``).
struct Frame {
    var type: UInt8
    var sequence: UInt64
    /// The payload's byte range in the file.
    var payload: Range<Int>
    /// Where the next frame starts.
    var next: Int

    /// The length and checksum fields.
    static let prefixSize = 8

    /// Appends a frame of `type` (with `sequence`, for a log) and `payload`, checksummed from `seed`.
    static func append(
        into w: inout BinaryWriter, type: UInt8, sequence: UInt64?, payload: UnsafeRawBufferPointer, seed: UInt32
    ) {
        let bodyStart = w.bytes.count + prefixSize
        let bodyLength = 1 + (sequence == nil ? 0 : 8) + payload.count
        w.u32(UInt32(truncatingIfNeeded: bodyLength))
        w.u32(0)
        w.u8(type)
        if let sequence { w.u64(sequence) }
        w.bytes.append(contentsOf: payload)
        let crc = w.bytes.withUnsafeBytes { CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: $0[bodyStart...])) }
        withUnsafeBytes(of: crc.littleEndian) { c in
            for i in 0..<4 { w.bytes[bodyStart - 4 + i] = c[i] }
        }
    }

    /// Where the frame at `offset` of `bytes` ends by the length it declares, valid or not;
    /// `nil` when the bytes there are too few to declare one.
    static func declaredEnd(of bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, bytes.count - offset >= prefixSize else { return nil }
        var length = 0
        for i in 0..<4 { length |= Int(bytes[offset + i]) << (8 * i) }
        return offset + prefixSize + length
    }

    /// The valid frame at `offset` of `file`, or nil when the bytes there are not one: too
    /// short, a length out of range, a type not in `types`, or a checksum mismatch.
    ///
    /// For log frames, `minimumSequence` is the lowest sequence number accepted (checked before
    /// the checksum, which makes scanning damaged bytes cheap).
    static func read(
        _ file: UnsafeRawBufferPointer, at offset: Int, seed: UInt32, hasSequence: Bool,
        types: ClosedRange<UInt8>, minimumSequence: UInt64 = 0
    ) -> Frame? {
        let fixed = 1 + (hasSequence ? 8 : 0)
        guard offset >= 0, file.count - offset >= prefixSize + fixed else { return nil }
        let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let bodyStart = offset + prefixSize
        guard length >= fixed, length <= StoreFormat.maxFrameBody, length <= file.count - bodyStart else { return nil }
        let type = file[bodyStart]
        guard types.contains(type) else { return nil }
        var sequence: UInt64 = 0
        if hasSequence {
            sequence = UInt64(littleEndian: file.loadUnaligned(fromByteOffset: bodyStart + 1, as: UInt64.self))
            guard sequence >= minimumSequence else { return nil }
        }
        let stored = UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        let body = UnsafeRawBufferPointer(rebasing: file[bodyStart..<(bodyStart + length)])
        guard CRC32C.update(seed, body) == stored else { return nil }
        return Frame(
            type: type, sequence: sequence, payload: (bodyStart + fixed)..<(bodyStart + length),
            next: bodyStart + length)
    }
}
