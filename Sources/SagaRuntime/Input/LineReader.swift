import Foundation

/// Reads lines from a file descriptor with `read(2)`: what is available is used at once (so
/// a pipe streams), and a line longer than ``limit`` is skipped whole and reported, instead
/// of being held in memory (`--input /dev/zero` must not exhaust it).
final class LineReader {
    /// The longest line kept: 16 MiB.
    static let limit = 16 << 20

    /// A line read, or a line too long to keep.
    enum Line {
        case text([UInt8])
        case tooLong
    }

    // Unchecked for exclusivity: one thread reads at a time (see ``InputSource``), and
    // nothing here calls out while it holds a field.
    private let fd: Int32
    @exclusivity(unchecked) private var chunk = [UInt8](repeating: 0, count: 64 << 10)
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEnd = false
    /// Set after an overlong line was reported, until its end has been skipped.
    @exclusivity(unchecked) private var skipping = false

    init(fd: Int32) {
        self.fd = fd
    }

    /// The next line without its line break, or `nil` at the end of the input. A line that
    /// grows past ``limit`` is reported as soon as it does (an endless line must not hang the
    /// reader); the rest of it is skipped before the next line.
    func next() -> Line? {
        var line: [UInt8] = []
        var sawAnything = false
        while true {
            if start == end {
                if atEnd { return sawAnything && !skipping ? .text(line) : nil }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    atEnd = true
                    continue
                }
                start = 0
                end = n
            }
            let newline = chunk[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            let stop = newline ?? end
            if skipping {
                start = newline.map { $0 + 1 } ?? end
                if newline != nil { skipping = false }
                continue
            }
            sawAnything = true
            if line.count + (stop - start) > LineReader.limit {
                skipping = true
                return .tooLong
            }
            line.append(contentsOf: chunk[start..<stop])
            if let newline {
                start = newline + 1
                return .text(line)
            }
            start = end
        }
    }
}
