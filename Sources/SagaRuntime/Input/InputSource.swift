import Foundation
import SagaCore

/// Outside actions for a run: one JSON record with a string `type` a line, or
/// `{"at": MS, "action": {…}}` to dispatch that action at time MS; blank lines are skipped.
///
/// Lines are read as the run needs them, so input can stream from a pipe.
/// Used by one thread at a time (the scheduler, or the real-time feed thread it hands it to).
public final class InputSource: @unchecked Sendable {
    // Stored apart rather than as cases of one enum: taking the reader out of an enum payload
    // retained and released it on every line.
    /// The file read, or `nil` for lines given.
    private let reader: LineReader?
    /// The actions of `{"type":"T"}` lines, made once per type (see ``TypeOnlyLines``).
    ///
    /// Unchecked for exclusivity: only the thread reading the input reaches it, one line at a
    /// time, and the dynamic check of each mutating call would be paid at every line.
    @exclusivity(unchecked) private var typeOnly = TypeOnlyLines()
    /// The file to close at its end, or -1 (standard input, lines given, or already closed).
    private var fdToClose: Int32
    /// The lines given, and the index of the next.
    private let lines: [String]
    private var nextIndex = 0
    private var lineNumber = 0
    /// What error messages call the input: the file's path, `standard input`, or `nil` for
    /// lines given.
    package private(set) var name: String?
    /// How many action lines read so far have an `at` beside their `type`, and the first
    /// three's numbers.
    ///
    /// Such a line (`{"at": 10, "type": "a"}`) is an action dispatched at once, with a field
    /// `at`, where a timed line was most likely meant.
    @exclusivity(unchecked) package private(set) var timedLikeCount = 0
    @exclusivity(unchecked) package private(set) var timedLikeLines: [Int] = []
    /// How many lines are looked at for ``timedLikeCount``: a run looks at its first 1,000
    /// (the look costs a key lookup a line, and the slip shows at once); `sagarun check` at
    /// every line.
    @exclusivity(unchecked) package var timedLikeLinesLookedAt = 1_000
    /// The timed lines ``actionTypes(maxErrors:)`` found earlier than a timed line before
    /// them (the first three, then how many more).
    private var earlierTimedLines: [InputWarning] = []

    /// Input from these lines (for tests and embedding).
    public init(lines: [String]) {
        self.lines = lines
        reader = nil
        fdToClose = -1
    }

    /// Input from standard input.
    public static func standardInput() -> InputSource {
        let source = InputSource(fd: STDIN_FILENO, close: false)
        source.name = "standard input"
        return source
    }

    /// Input from a file; `nil` if it cannot be opened.
    public static func file(_ path: String) -> InputSource? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        // A folder opens, but reads as nothing: it is not an input file.
        var info = stat()
        if fstat(fd, &info) != 0 || (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            return nil
        }
        let source = InputSource(fd: fd, close: true)
        source.name = path
        return source
    }

    /// Input from an open file descriptor, closed at the end when `close` is set.
    init(fd: Int32, close: Bool) {
        lines = []
        reader = LineReader(fd: fd)
        fdToClose = close ? fd : -1
    }

    deinit {
        if fdToClose >= 0 { close(fdToClose) }
    }

    /// The next input action, skipping blank lines; `nil` at the end.
    ///
    /// - Throws: ``InputError`` for a line that is not a valid input record.
    /// Ends a read that waits for input once this stop is asked for: the input then ends
    /// there, as at its end.
    func endReads(on stop: StopRequest) {
        reader?.stopRequest = stop
    }

    func next() throws(InputError) -> InputLine? {
        guard reader != nil else { return try nextGivenLine() }
        // Optional chaining borrows the reader; `guard let` retained and released it per line.
        while let line = reader?.next() {
            lineNumber += 1
            guard case .text(var bytes) = line else {
                throw InputError(line: lineNumber, message: "the line is longer than \(LineReader.limit >> 20) MiB")
            }
            if bytes.last == UInt8(ascii: "\r") { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
            if let action = typeOnly.action(bytes) { return InputLine(action: action, at: nil) }
            if let line = try InputLine.parse(unlessBlank: bytes, line: lineNumber) {
                if _slowPath(lineNumber <= timedLikeLinesLookedAt) { noteIfTimedLike(line) }
                return line
            }
        }
        if fdToClose >= 0 {
            close(fdToClose)
            fdToClose = -1
        }
        return nil
    }

    /// The types of every action the input holds, read to its end (the lines of event
    /// channels have none), as `sagarun check --input` matches them against the program's
    /// takes, and the lines that are not valid input records: at most `maxErrors`, after
    /// which the reading stops (`errors.count == maxErrors` then says there may be more).
    ///
    /// The lines with an `at` beside their `type` are counted as they are read, and the timed
    /// lines earlier than a timed line before them noted (``warnings``).
    package func actionTypes(maxErrors: Int) -> (types: Set<String>, errors: [InputError]) {
        var types: Set<String> = []
        var errors: [InputError] = []
        var latest: (at: Int, line: Int)?
        var earlier = 0
        while errors.count < maxErrors {
            do throws(InputError) {
                guard let line = try next() else { break }
                if !line.isForChannel, case .record(let record) = line.action, let type = record.actionType {
                    types.insert(type)
                }
                if let at = line.at {
                    if let latest, at < latest.at {
                        earlier += 1
                        if earlier <= 3 {
                            earlierTimedLines.append(
                                InputWarning(
                                    line: lineNumber,
                                    message: "'at' \(at) is earlier than \(latest.at), line \(latest.line)'s: "
                                        + "lines are read in order, so it is dispatched no earlier than \(latest.at)"))
                        }
                    } else {
                        latest = (at, lineNumber)
                    }
                }
            } catch {
                errors.append(error)
            }
        }
        if earlier > 3 {
            earlierTimedLines.append(
                InputWarning(line: nil, message: "\(earlier - 3) more timed lines earlier than a line before them"))
        }
        return (types, errors)
    }

    /// Counts `line` among ``timedLikeCount`` if it is an action with an `at` beside its `type`.
    private func noteIfTimedLike(_ line: InputLine) {
        guard line.at == nil, !line.isForChannel, case .record(let record) = line.action, record["at"] != nil else {
            return
        }
        timedLikeCount += 1
        if timedLikeLines.count < 3 { timedLikeLines.append(lineNumber) }
    }

    /// Warnings of the lines counted in ``timedLikeCount``, then, for `sagarun check`, of the
    /// timed lines earlier than the timed line before them (see ``actionTypes(maxErrors:)``).
    package var warnings: [InputWarning] {
        var warnings = timedLikeLines.map { line in
            InputWarning(
                line: line,
                message: "'at' beside 'type' is a field of an action dispatched at once; "
                    + "a timed line is {\"at\": MS, \"action\": {\"type\": …}}")
        }
        if timedLikeCount > timedLikeLines.count {
            let among = timedLikeLinesLookedAt < lineNumber ? " among its first \(timedLikeLinesLookedAt) lines" : ""
            warnings.append(
                InputWarning(line: nil, message: "\(timedLikeCount - timedLikeLines.count) more such lines\(among)"))
        }
        return warnings + earlierTimedLines
    }

    /// The next action of the lines given (taken as they are: no line break to strip).
    private func nextGivenLine() throws(InputError) -> InputLine? {
        while nextIndex < lines.count {
            let bytes = Array(lines[nextIndex].utf8)
            nextIndex += 1
            lineNumber += 1
            let number = lineNumber
            let parsed = bytes.withUnsafeBufferPointer { buffer in
                if let action = typeOnly.action(buffer) {
                    return Result<InputLine?, InputError>.success(InputLine(action: action, at: nil))
                }
                return Result { () throws(InputError) -> InputLine? in
                    try InputLine.parse(unlessBlank: buffer, line: number)
                }
            }
            if let line = try parsed.get() {
                if _slowPath(lineNumber <= timedLikeLinesLookedAt) { noteIfTimedLike(line) }
                return line
            }
        }
        return nil
    }
}

/// A malformed input line.
public struct InputError: Error, Sendable {
    /// The 1-based line number.
    public var line: Int
    /// What is wrong with it.
    public var message: String
    /// The 1-based column where the JSON reader found it wrong; 0 if it did not. (An `Int32`
    /// and no optional: the error is thrown by the reading of every input line, and a larger
    /// one costs the loop that reads them.)
    public var column: Int32 = 0

    /// The error as diagnostics say where they are: `FILE:LINE:COLUMN: error: MESSAGE` for an
    /// input named `name` (a file's path, `standard input`), or `error: input line LINE: …` for
    /// lines given.
    package func described(in name: String?) -> String {
        guard let name else {
            return "error: input line \(line): \(message)" + (column > 0 ? " (column \(column))" : "")
        }
        return "\(name):\(line):" + (column > 0 ? "\(column):" : "") + " error: \(message)"
    }
}
