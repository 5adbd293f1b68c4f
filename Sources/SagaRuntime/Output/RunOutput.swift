import Foundation

/// Where a run writes: the transcript (standard output for `sagarun`) and error reports
/// (standard error).
public protocol RunOutput: AnyObject {
    /// One transcript line, without its newline.
    func transcript(_ line: String)
    /// One error report (may span lines), without a final newline.
    func error(_ text: String)
    /// Whether the output takes no more transcript: the run stops at the line that filled it,
    /// as ``Interpreter/stop()`` stops it (a bounded capture, such as a golden test's). False
    /// by default.
    var isFull: Bool { get }
}

extension RunOutput {
    /// Never full.
    public var isFull: Bool { false }
}

/// Collects a run's output in memory: for tests and golden files.
public final class BufferedOutput: RunOutput {
    /// Transcript lines in order.
    public private(set) var lines: [String] = []
    /// Error reports in order.
    public private(set) var errors: [String] = []

    /// An empty buffer.
    public init() {}

    public func transcript(_ line: String) { lines.append(line) }
    public func error(_ text: String) { errors.append(text) }

    /// The transcript as text, one line each, ending with a newline (empty when there is none).
    public var text: String { lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n" }
}

/// Writes the transcript to standard output, flushing each line as it is written, and
/// errors to standard error.
public final class StandardOutput: RunOutput {
    private var buffer: [UInt8] = []
    /// The first write to standard output that failed (a full disk, a closed pipe), with
    /// `strerror`'s words for it: the transcript is incomplete, and the run must say so.
    public private(set) var outputFailure: String?

    /// Writes to the process's standard output and error.
    public init() {
        buffer.reserveCapacity(4096)
    }

    public func transcript(_ line: String) { write(line, newline: true, to: 1) }
    public func error(_ text: String) { write(text, newline: true, to: 2) }

    /// Writes text to standard output as is.
    public func transcriptRaw(_ text: String) { write(text, newline: false, to: 1) }

    /// Writes text to standard error as is.
    public func errorRaw(_ text: String) { write(text, newline: false, to: 2) }

    private func write(_ text: String, newline: Bool, to fd: Int32) {
        buffer.append(contentsOf: text.utf8)
        if newline { buffer.append(UInt8(ascii: "\n")) }
        flush(fd: fd)
    }

    private func flush(fd: Int32) {
        buffer.withUnsafeBytes { raw in
            guard var base = raw.baseAddress else { return }
            var left = raw.count
            while left > 0 {
                let n = Glibc.write(fd, base, left)
                if n <= 0 {
                    if n < 0, errno == EINTR { continue }
                    if fd == 1, outputFailure == nil {
                        outputFailure = String(cString: strerror(n < 0 ? errno : ENOSPC))
                    }
                    return
                }
                left -= n
                base += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
