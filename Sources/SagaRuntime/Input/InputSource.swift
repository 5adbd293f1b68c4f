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

    /// The next line (1-based number and UTF-8 bytes), or `nil` at the end.
    private func nextRawLine() throws(InputError) -> (Int, [UInt8])? {
        switch origin {
        case .lines(let lines, let index):
            guard index < lines.count else { return nil }
            origin = .lines(lines, index + 1)
            lineNumber += 1
            return (lineNumber, Array(lines[index].utf8))
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
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
                return (lineNumber, bytes)
            }
        case .finished:
            return nil
        }
    }

    /// The next input action, skipping blank lines; `nil` at the end.
    ///
    /// - Throws: ``InputError`` for a line that is not a valid input record.
    func next() throws(InputError) -> InputLine? {
        while let (number, bytes) = try nextRawLine() {
            if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            return try InputLine.parse(bytes, line: number)
        }
        return nil
    }
}

/// One outside action, with the time it is due when the line names one.
struct InputLine {
    var action: Value
    var at: Int?

    /// Reads one line's UTF-8 bytes as they are (no `String` in between): invalid UTF-8 is
    /// a malformed line, like any other JSON error.
    static func parse(_ bytes: [UInt8], line: Int) throws(InputError) -> InputLine {
        let value: Value
        do {
            // The raw-buffer entry point: the generic one is not specialised across modules.
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(JSONError) -> Value in try JSONReader.parse(bytes: raw) }
            }
            value = try result.get()
        } catch {
            throw InputError(line: line, message: "\(error.message) (column \(error.column))")
        }
        guard case .record(let r) = value else {
            throw InputError(line: line, message: "expected a JSON record, got \(value.kindName)")
        }
        if case .string? = r["type"] { return InputLine(action: value, at: nil) }
        if r["type"] != nil {
            throw InputError(line: line, message: "'type' must be a string")
        }
        guard let at = r["at"], let action = r["action"] else {
            throw InputError(
                line: line, message: "expected an action with a string 'type', or {\"at\": MS, \"action\": {…}}")
        }
        guard let ms = Evaluator.integer(at), ms >= 0 else {
            throw InputError(line: line, message: "'at' must be a whole number of milliseconds ≥ 0")
        }
        guard case .record(let a) = action, case .string? = a["type"] else {
            throw InputError(line: line, message: "'action' must be a record with a string 'type'")
        }
        return InputLine(action: action, at: ms)
    }
}

/// A malformed input line.
public struct InputError: Error, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with it.
    public var message: String
}
