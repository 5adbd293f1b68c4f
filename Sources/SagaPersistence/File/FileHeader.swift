/// The header at the start of every store file (see ``StoreFormat``).
struct FileHeader: Equatable {
    var magic: [UInt8]
    var epoch: UInt64
    var baseSequence: UInt64

    /// The CRC of the epoch's 8 bytes: where every frame checksum of this file starts.
    var frameSeed: UInt32 {
        withUnsafeBytes(of: epoch.littleEndian) { CRC32C.update(0, $0) }
    }

    /// The 32 bytes of this header.
    func encoded() -> [UInt8] {
        var w = BinaryWriter(capacity: StoreFormat.headerSize)
        w.bytes.append(contentsOf: magic)
        w.bytes.append(UInt8(truncatingIfNeeded: StoreFormat.version))
        w.bytes.append(UInt8(truncatingIfNeeded: StoreFormat.version >> 8))
        w.bytes.append(contentsOf: [0, 0])
        w.u64(epoch)
        w.u64(baseSequence)
        w.u32(CRC32C.update(0, w.bytes))
        return w.bytes
    }

    /// The frame seed of a file whose header is damaged: the one its epoch field gives (the
    /// records' own checksums then tell whether that was right); `nil` for a file too short to
    /// hold a header.
    static func seed(fromDamaged bytes: UnsafeRawBufferPointer, magic: [UInt8]) -> UInt32? {
        guard bytes.count >= StoreFormat.headerSize else { return nil }
        let epoch = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
        return FileHeader(magic: magic, epoch: epoch, baseSequence: 0).frameSeed
    }

    /// Reads and checks the header of `bytes`, a file at `path` that must have `magic`.
    ///
    /// - Throws: `.newerFormat` for a version above ours; `.corrupt` for a short file, a
    ///   wrong magic or a bad checksum.
    static func read(_ bytes: UnsafeRawBufferPointer, magic: [UInt8], path: String) throws(StoreError) -> FileHeader {
        guard bytes.count >= StoreFormat.headerSize, bytes.prefix(8).elementsEqual(magic) else {
            throw StoreError(.corrupt, "not a saga store file (bad or missing header)", path: path, offset: 0)
        }
        let version = UInt16(bytes[8]) | UInt16(bytes[9]) << 8
        // The version is checked before the checksum: a newer format may lay its header out differently.
        if version > StoreFormat.version {
            throw StoreError(
                .newerFormat,
                "the store was written by a newer version (format \(version)); this sagarun reads up to format \(StoreFormat.version): use a newer sagarun",
                path: path)
        }
        var r = BinaryReader(UnsafeRawBufferPointer(rebasing: bytes.prefix(StoreFormat.headerSize)), at: 12)
        do throws(BinaryReader.Malformed) {
            let epoch = try r.u64()
            let base = try r.u64()
            let crc = try r.u32()
            let computed = CRC32C.update(0, UnsafeRawBufferPointer(rebasing: bytes.prefix(28)))
            guard version == StoreFormat.version, crc == computed else {
                throw BinaryReader.Malformed()
            }
            return FileHeader(magic: magic, epoch: epoch, baseSequence: base)
        } catch {
            throw StoreError(.corrupt, "the file header is damaged (checksum mismatch)", path: path, offset: 0)
        }
    }
}
