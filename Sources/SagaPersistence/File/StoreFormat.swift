/// The constants of the file store's on-disk format (version 1).
///
/// Every file starts with a 32-byte header: an 8-byte magic, the format version (u16), two
/// reserved bytes, an epoch (u64, random per file), a base sequence number (u64: the last
/// record sequence number that the files before this one cover), and the CRC-32C of the 28
/// bytes before it. Integers are little-endian.
///
/// A log segment then holds frames `[length u32][crc u32][type u8][seq u64][payload]`,
/// where `length` counts type, seq and payload, and the CRC covers the file's epoch (8
/// bytes) then type, seq and payload: a record left over from an older file (an older
/// epoch) or zero-filled bytes can never pass. A snapshot holds frames
/// `[length u32][crc u32][type u8][payload]` with the same CRC rule.
enum StoreFormat {
    /// The version this program writes and reads; a newer one is refused.
    static let version: UInt16 = 1
    /// The size of every file header.
    static let headerSize = 32
    /// The magic of a log segment.
    static let logMagic: [UInt8] = Array("SAGALOG\u{0}".utf8)
    /// The magic of a snapshot.
    static let snapshotMagic: [UInt8] = Array("SAGASNP\u{0}".utf8)
    /// The largest frame body accepted (a bigger length field is damage, not an element).
    static let maxFrameBody = 1 << 30

    /// Frame types of a log segment.
    static let save: UInt8 = 1
    static let delete: UInt8 = 2
    /// Frame types of a snapshot: an entity (name, element count), one of its elements, the end (element total).
    static let entity: UInt8 = 3
    static let element: UInt8 = 4
    static let end: UInt8 = 5

    /// The lock file's name.
    static let lockName = "LOCK"
    /// The suffix of a file being written, removed by recovery.
    static let temporarySuffix = ".tmp"
    /// The prefix of a file that keeps the bytes recovery cut off a log's end.
    static let tornPrefix = "torn-"

    /// The name of the file that keeps the bytes opening cut off the end of `log` at `offset`.
    ///
    /// `torn-log-0000000000000007-at-1234` (`…-at-1234-2` and on for a later tail cut at the
    /// same place); the store never reads it.
    static func tornName(_ log: String, offset: Int) -> String { tornPrefix + log + "-at-" + String(offset) }

    /// The prefix of a file `store recover` replaced, kept as it was.
    static let replacedPrefix = "before-recover-"

    /// The name `recover` keeps `file` under: `before-recover-log-0000000000000007`
    /// (`…-2` and on when an earlier recovery kept one of that name); the store never reads it.
    static func replacedName(_ file: String, taken: Set<String>) -> String {
        unusedName(replacedPrefix + file, isTaken: taken.contains)
    }

    /// `name`, or `name-2`, `name-3`… where a file of that name is kept already.
    static func unusedName(_ name: String, isTaken: (String) -> Bool) -> String {
        var candidate = name
        var n = 2
        while isTaken(candidate) {
            candidate = "\(name)-\(n)"
            n += 1
        }
        return candidate
    }

    /// `log-0000000000000007`.
    static func logName(_ generation: Int) -> String { "log-" + padded(generation) }
    /// `snapshot-0000000000000007`.
    static func snapshotName(_ generation: Int) -> String { "snapshot-" + padded(generation) }

    /// The generation of a log or snapshot file name, with its kind; nil for other names.
    static func parse(_ name: String) -> (isLog: Bool, generation: Int)? {
        for (prefix, isLog) in [("log-", true), ("snapshot-", false)] where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            guard digits.count == 16, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let g = Int(digits) else {
                return nil
            }
            return (isLog, g)
        }
        return nil
    }

    private static func padded(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
