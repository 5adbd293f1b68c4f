import Foundation
import SagaCore

/// Outside actions for a run: one JSON record with a string `type` a line, or
/// `{"at": MS, "action": {…}}` to dispatch that action at time MS; blank lines are skipped.
///
/// Lines are read as the run needs them, so input can stream from a pipe.
/// Used by one thread at a time (the scheduler, or the real-time feed thread it hands it to).
public final class InputSource: @unchecked Sendable {
    private enum Origin {
        case lines([String], Int)
        case file(LineReader, fd: Int32, closeWhenDone: Bool)
        case finished
    }

    private var origin: Origin
    private var lineNumber = 0

    /// Input from these lines (for tests and embedding).
    public init(lines: [String]) {
        origin = .lines(lines, 0)
    }

    /// Input from standard input.
    public static func standardInput() -> InputSource {
        InputSource(fd: STDIN_FILENO, close: false)
    }

    /// Input from a file; `nil` if it cannot be opened.
    public static func file(_ path: String) -> InputSource? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        return InputSource(fd: fd, close: true)
    }

    /// Input from an open file descriptor, closed at the end when `close` is set.
    init(fd: Int32, close: Bool) {
        origin = .file(LineReader(fd: fd), fd: fd, closeWhenDone: close)
    }

    deinit {
        if case .file(_, let fd, true) = origin { close(fd) }
    }

    /// The next input action, skipping blank lines; `nil` at the end.
    ///
    /// - Throws: ``InputError`` for a line that is not a valid input record.
    func next() throws(InputError) -> InputLine? {
        while true {
            switch origin {
            case .lines(let lines, let index):
                guard index < lines.count else { return nil }
                origin = .lines(lines, index + 1)
                lineNumber += 1
                let number = lineNumber
                let bytes = Array(lines[index].utf8)
                let parsed = bytes.withUnsafeBufferPointer { buffer in
                    Result { () throws(InputError) -> InputLine? in
                        try InputLine.parse(unlessBlank: buffer, line: number)
                    }
                }
                if let line = try parsed.get() { return line }
            case .file(let reader, let fd, let close):
                switch reader.next() {
                case nil:
                    if close { Foundation.close(fd) }
                    origin = .finished
                    return nil
                case .tooLong?:
                    lineNumber += 1
                    throw InputError(line: lineNumber, message: "the line is longer than \(LineReader.limit >> 20) MiB")
                case .text(var bytes)?:
                    lineNumber += 1
                    if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
                    if let line = try InputLine.parse(unlessBlank: bytes, line: lineNumber) { return line }
                }
            case .finished:
                return nil
            }
        }
    }
}

/// A malformed input line.
public struct InputError: Error, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with it.
    public var message: String
}
