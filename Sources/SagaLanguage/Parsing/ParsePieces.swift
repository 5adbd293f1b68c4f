import Foundation

/// When and where a large file is cut into pieces that are parsed at once, one thread each
/// (Parser+Pieces.swift).
///
/// A piece starts at the start of a line that begins with `saga`, `func` or `reduce`: a
/// keyword that begins a declaration and can continue nothing. Where such a line really
/// starts a declaration, the pieces parse exactly as the whole file does; where it does not
/// (inside a block, a block comment, a record), the piece before it does not parse cleanly,
/// and the file is parsed whole instead. Nothing needs to be known about the text to cut it.
struct ParsePieces: Sendable {
    /// Files smaller than this are parsed whole: starting threads would cost more than it saves.
    var minimumBytes: Int
    /// No piece is cut smaller than this (but the last may be).
    var minimumPieceBytes: Int
    /// At most this many pieces.
    var maximumPieces: Int

    /// Pieces of 512 KiB at least, for files of 1 MiB or more, one for each core (eight at most).
    static let automatic = ParsePieces(
        minimumBytes: 1 << 20, minimumPieceBytes: 512 << 10,
        maximumPieces: min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 8))

    /// Every file parsed whole.
    static let never = ParsePieces(minimumBytes: .max, minimumPieceBytes: .max, maximumPieces: 1)

    /// The offset at which each piece of `bytes` starts, the first 0; just `[0]` when the file
    /// stays whole.
    func starts(in bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard bytes.count >= minimumBytes, maximumPieces > 1, minimumPieceBytes > 0 else { return [0] }
        let pieces = min(maximumPieces, bytes.count / minimumPieceBytes)
        var starts = [0]
        var k = 1
        while k < pieces {
            let target = max(bytes.count / pieces * k, starts[starts.count - 1] + minimumPieceBytes)
            guard target < bytes.count, let start = Self.declarationLine(in: bytes, from: target) else { break }
            starts.append(start)
            k += 1
        }
        return starts
    }

    /// The first offset at or after `offset` that starts a line beginning with `saga `,
    /// `func ` or `reduce ` (or a tab for the space), if any.
    static func declarationLine(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        var i = offset
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\n"), i + 1 < bytes.count, startsDeclaration(bytes, at: i + 1) {
                return i + 1
            }
            i += 1
        }
        return nil
    }

    private static let keywords: [StaticString] = ["saga", "func", "reduce"]

    /// Whether `bytes` has `func ` (or a tab for the space) at `start`: what a line that
    /// begins a function declaration begins with, in the count of a piece's functions before
    /// it (`Parser.lineNumbers(of:in:)`).
    @inline(__always)
    static func startsFunction(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        starts("func", bytes, at: start)
    }

    private static func startsDeclaration(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        keywords.contains { starts($0, bytes, at: start) }
    }

    /// Whether `bytes` has `keyword` at `start`, followed by a space or a tab.
    @inline(__always)
    private static func starts(_ keyword: StaticString, _ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let count = keyword.utf8CodeUnitCount
        let end = start + count
        guard start >= 0, end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") else {
            return false
        }
        let word = keyword.utf8Start
        var i = 0
        while i < count, bytes[start + i] == word[i] { i += 1 }
        return i == count
    }
}
