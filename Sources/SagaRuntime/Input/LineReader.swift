import Foundation
import SagaLanguage

/// Reads lines from a file descriptor with `read(2)`: what is available is used at once (so
/// a pipe streams), and a line longer than ``limit`` is skipped whole and reported, instead
/// of being held in memory (`--input /dev/zero` must not exhaust it).
///
/// A line that lies whole in one read is handed out in place, in the read buffer; only a
/// line that spans reads is gathered, in a buffer kept for the next such line. A fresh array
/// per line would be a large part of the cost of reading a small action.
final class LineReader {
    /// The longest line kept: 16 MiB.
    static let limit = 16 << 20
    /// The size of one read.
    static let chunkSize = 64 << 10
    /// The largest gather buffer kept from one line to the next: 1 MiB.
    ///
    /// One grown for a longer line (up to ``limit``) is let go once that line has been used,
    /// rather than held for the rest of the run.
    static let keptGatherCapacity = 1 << 20

    /// A line read, or a line too long to keep.
    enum Line {
        /// The line's bytes without its line break: valid only until the next ``next()``.
        case text(UnsafeBufferPointer<UInt8>)
        /// A line longer than ``LineReader/limit``, reported as soon as it grows past it.
        case tooLong
    }

    // Unchecked for exclusivity: one thread reads at a time (see ``InputSource``), and
    // nothing here calls out while it holds a field.
    private let fd: Int32
    private let chunk: UnsafeMutableBufferPointer<UInt8>
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    /// Set until the first read: a byte-order mark an editor put first is skipped then (it is
    /// not part of the first line).
    @exclusivity(unchecked) private var atStart = true
    /// Set after an overlong line was reported, until its end has been skipped.
    @exclusivity(unchecked) private var skipping = false
    /// Where a line that spans reads is gathered: `gathered` bytes of it are in use.
    @exclusivity(unchecked) private var spill = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// How many bytes the gather buffer holds now (for tests).
    var gatherCapacity: Int { spill.count }
    @exclusivity(unchecked) private var gathered = 0
    /// The run's stop, which ends a read that waits for input (see ``isReadable(_:unless:)``).
    @exclusivity(unchecked) var stopRequest: StopRequest?

    init(fd: Int32) {
        self.fd = fd
        chunk = .allocate(capacity: LineReader.chunkSize)
        chunk.initialize(repeating: 0)
    }

    deinit {
        chunk.deallocate()
        spill.deallocate()
    }

    /// The next line without its line break, or `nil` at the end of the input.
    ///
    /// A line that grows past ``limit`` is reported as soon as it does (an endless line must
    /// not hang the reader); the rest of it is skipped before the next line.
    ///
    /// The bytes of a line returned are valid until the next call.
    func next() -> Line? {
        gathered = 0
        if spill.count > LineReader.keptGatherCapacity {
            spill.deallocate()
            spill = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        var sawAnything = false
        while true {
            if start == end {
                if atEnd { return sawAnything && !skipping ? .text(gatheredLine) : nil }
                if let stop = stopRequest, !Self.isReadable(fd, unless: stop) {
                    // A stop was asked for while the input had nothing to read: it ends here.
                    atEnd = true
                    continue
                }
                let n = read(fd, chunk.baseAddress, chunk.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    atEnd = true
                    continue
                }
                start = 0
                end = n
                if atStart {
                    atStart = false
                    let mark = SourceLoader.byteOrderMark
                    if n >= mark.count, chunk[0..<mark.count].elementsEqual(mark) { start = mark.count }
                }
            }
            let newline = firstNewline()
            let stop = newline ?? end
            if skipping {
                start = newline.map { $0 &+ 1 } ?? end
                if newline != nil { skipping = false }
                continue
            }
            sawAnything = true
            if gathered &+ (stop &- start) > LineReader.limit {
                skipping = true
                return .tooLong
            }
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<stop])
            if let newline {
                start = newline &+ 1
                if gathered == 0 { return .text(piece) }
                gather(piece)
                return .text(gatheredLine)
            }
            gather(piece)
            start = end
        }
    }

    /// Whether `fd` has bytes to read, its end, or an error `read` reports.
    ///
    /// `false` once `stop` is asked for while it has none: a read that would wait for a pipe
    /// or a terminal waits here instead, where a stop can end it. Out of line, off the path
    /// of ``next()`` that finds its line in the chunk.
    @inline(never)
    private static func isReadable(_ fd: Int32, unless stop: StopRequest) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while !stop.isAsked {
            let ready = poll(&descriptor, 1, 100)
            if ready > 0 || (ready < 0 && errno != EINTR) { return true }
        }
        return false
    }

    /// The index of the first line break in `chunk[start..<end]`, if there is one.
    private func firstNewline() -> Int? {
        guard let base = chunk.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end &- start)
        else { return nil }
        return UnsafeMutableRawPointer(base).distance(to: found)
    }

    private var gatheredLine: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: spill[0..<gathered])
    }

    /// Appends `piece` to the line being gathered (never past ``limit``: `next()` checks
    /// first), growing the buffer by doubling.
    private func gather(_ piece: UnsafeBufferPointer<UInt8>) {
        let needed = gathered &+ piece.count
        if needed > spill.count {
            let grown = UnsafeMutableBufferPointer<UInt8>.allocate(
                capacity: Swift.min(Swift.max(needed, spill.count * 2, 4096), LineReader.limit))
            _ = grown.initialize(fromContentsOf: spill[0..<gathered])
            spill.deallocate()
            spill = grown
        }
        _ = spill[gathered..<needed].initialize(fromContentsOf: piece)
        gathered = needed
    }
}
