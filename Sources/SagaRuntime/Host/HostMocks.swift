import SagaCore
import SagaLanguage
import Synchronization

/// Canned results of host functions, given by function and call order: what a golden test
/// gives a program for the functions an app would provide (`X.mocks.jsonl` beside `X.saga`,
/// or `sagarun run --mocks FILE`).
///
/// Each line is one JSON record: the function's name, optionally the arguments it must be
/// called with, and its result, its error, `"pending": true` for a call that never answers
/// (one a `race` timeout beat), or `"channel": NAME` for a call that returns a new event
/// channel, which input lines then feed (see ``EventChannel``).
///
/// ```
/// {"call": "api.fetchUser", "args": [7], "result": {"id": 7, "name": "Ada"}}
/// {"call": "api.fetchUser", "error": {"kind": "NotFound", "message": "no user 9"}}
/// {"call": "api.slow", "args": [], "pending": true}
/// {"call": "chat.connect", "args": ["general"], "channel": "chat.messages"}
/// ```
///
/// The calls of one function take its lines in order. A call with no line left, or with
/// other arguments than its line names, fails in the saga with a `MockError`; so does a call
/// of a function with no lines at all that the program declares `extern`. A line no call took
/// is a problem too, unless it says `"optional": true` (a call that only a failure makes, as
/// a compensation's under `sagarun test --inject-failures`): ``problems`` lists them all once
/// the run is over.
///
/// The line of a call that an injected failure ended before it was made is left for the next
/// call of the function: that call takes it if its arguments match (a `retry` of the call),
/// and passes over it otherwise.
public final class HostMocks: Sendable {
    /// A mocks file that does not parse: where, and what is wrong there.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// The line, from 1.
        public var line: Int
        /// The column, from 1, in Unicode scalars: the offending character of a line that is
        /// not JSON, or where the line's record begins.
        public var column: Int
        /// What is wrong, without the place.
        public var message: String
        /// `LINE:COLUMN: MESSAGE`, as a `JSONError` writes it.
        public var description: String { "\(line):\(column): \(message)" }
    }

    /// One line: a call's expected arguments (if given) and its outcome.
    private struct Mock: Sendable {
        var name: String
        var line: Int
        var arguments: Value?
        var outcome: Outcome
        /// Whether the line may go untaken.
        var isOptional: Bool
        /// Whether the call it was for was made to fail, leaving it to the next call.
        var isLeftByFailure = false
    }

    /// What a line's call gives.
    private enum Outcome: Sendable {
        case result(Result<Value, SagaError>)
        /// A new event channel of this name, each time.
        case channel(String)
    }

    private struct Calls: ~Copyable {
        /// The lines of each function not yet taken, in order.
        var waiting: [String: [Mock]] = [:]
        /// How many lines each function has, for messages.
        var counts: [String: Int] = [:]
        /// Calls that found no line, or the wrong one.
        var unexpected: [String] = []
    }

    private let calls: Mutex<Calls>
    /// Where the lines came from, for messages.
    private let source: String

    /// Parses a mocks file's text.
    ///
    /// - Parameters:
    ///   - text: the file's lines, one JSON record a call.
    ///   - source: the file's name, for messages.
    /// - Throws: ``ParseError`` for a line that is not a record with a string `call` and
    ///   a `result`, an `error`, `"pending": true` or a `channel`.
    public init(jsonl text: String, source: String = "mocks") throws(ParseError) {
        var state = Calls()
        // Split on every line end, "\r\n" included (one `Character` in Swift), after any
        // byte-order mark an editor put first.
        let text = SourceLoader.withoutByteOrderMark(text)
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            // Where the record begins: each problem with it is reported there.
            let indent = raw.unicodeScalars.prefix { $0 == " " || $0 == "\t" }.count
            func problem(_ message: String) -> ParseError {
                ParseError(line: line, column: indent + 1, message: message)
            }
            let value: Value
            do {
                value = try JSONReader.parse(String(trimmed))
            } catch {
                throw ParseError(line: line, column: indent + error.column, message: error.message)
            }
            guard case .record(let r) = value else { throw problem("a mock is a JSON record") }
            guard case .string(let name)? = r["call"] else {
                throw problem("a mock names its function in a string 'call'")
            }
            for key in r.keys where !Self.keys.contains(key) {
                throw problem(
                    "a mock has no '\(key)': it has 'call', 'args', 'optional', and a 'result', an 'error', 'pending' or a 'channel'"
                )
            }
            let outcome: Outcome
            switch (r["result"], r["error"], r["pending"], r["channel"]) {
            case (let result?, nil, nil, nil):
                outcome = .result(.success(result))
            case (nil, let error?, nil, nil):
                outcome = .result(.failure(SagaError.host(error)))
            case (nil, nil, .bool(true)?, nil):
                outcome = .result(.failure(Self.neverAnswers))
            case (nil, nil, nil, .string(let name)?) where !name.isEmpty:
                outcome = .channel(name)
            case (nil, nil, nil, _?):
                throw problem("'channel' is the name of the event channel the call returns")
            default:
                throw problem("a mock has either a 'result', an 'error', \"pending\": true or a 'channel'")
            }
            let isOptional: Bool
            switch r["optional"] {
            case nil: isOptional = false
            case .bool(let b)?: isOptional = b
            case _?: throw problem("'optional' is true or false")
            }
            let arguments = r["args"]
            if let arguments {
                guard case .list = arguments else {
                    throw problem("'args' is a list of the call's arguments")
                }
            }
            state.waiting[name, default: []].append(
                Mock(name: name, line: line, arguments: arguments, outcome: outcome, isOptional: isOptional))
            state.counts[name, default: 0] += 1
        }
        self.calls = Mutex(state)
        self.source = source
    }

    /// The keys a mocks line may have.
    private static let keys: Set<String> = ["call", "args", "result", "error", "pending", "channel", "optional"]

    /// The names of the functions the lines give results for.
    public var names: Set<String> { calls.withLock { Set($0.counts.keys) } }

    /// Host functions that answer from the lines: one for each function they name, and one
    /// for each of `others` (the program's `extern` functions) that fails every call.
    public func functions(failingCallsOf others: [String] = []) -> HostFunctions {
        var host = HostFunctions()
        // Each call takes its line when it is made, in the order the saga makes it.
        for name in Set(others).union(names) {
            host.register(
                name,
                answeringAtTheCall: { [self] arguments in
                    Result { () throws(SagaError) in try self.answer(name, arguments) }
                },
                madeToFail: { [self] arguments in leave(name, arguments) })
        }
        return host
    }

    /// A call of `name` with `arguments` was made to fail before it was made: the line it
    /// would have taken, if it is for these arguments, is left for the next call.
    private func leave(_ name: String, _ arguments: [Value]) {
        calls.withLock { c in
            guard let first = c.waiting[name]?.first, first.arguments.map({ $0 == .list(arguments) }) ?? true else {
                return
            }
            c.waiting[name]?[0].isLeftByFailure = true
        }
    }

    /// The outcome of a call of `name` with `arguments`: its next line's.
    private func answer(_ name: String, _ arguments: [Value]) throws(SagaError) -> Value {
        let call = "\(name)(\(arguments.map(\.canonicalJSON).joined(separator: ", ")))"
        let next = calls.withLock { c -> Result<Mock, SagaError> in
            guard var waiting = c.waiting[name], !waiting.isEmpty else {
                let count = c.counts[name, default: 0]
                let message =
                    count == 0
                    ? "unexpected call \(call): \(source) has no line for \(name)"
                    : "unexpected call \(call): \(source) has \(count) line\(count == 1 ? "" : "s") for \(name), all taken"
                c.unexpected.append(message)
                return .failure(SagaError(kind: "MockError", message: message))
            }
            var mock = waiting.removeFirst()
            // A line a failed call left, for other arguments than this call's: passed over.
            while mock.isLeftByFailure, let expected = mock.arguments, expected != .list(arguments), !waiting.isEmpty {
                mock = waiting.removeFirst()
            }
            c.waiting[name] = waiting
            if let expected = mock.arguments, expected != .list(arguments) {
                let message =
                    "unexpected call \(call): line \(mock.line) of \(source) expects \(name)"
                    + "(\(Self.listed(expected)))"
                c.unexpected.append(message)
                return .failure(SagaError(kind: "MockError", message: message))
            }
            return .success(mock)
        }
        switch try next.get().outcome {
        case .result(let result):
            return try result.get()
        case .channel(let name):
            return EventChannel(named: name, buffer: .unbounded, holdsEnd: false, onClose: nil).value
        }
    }

    /// The calls that found no line, or a line for other arguments, so far.
    package var unexpectedCalls: [String] { calls.withLock { $0.unexpected } }

    /// What went wrong once the run is over: each unexpected call, then each line no call
    /// took; empty when every call found its line and every line was taken.
    public var problems: [String] { problems(callees: nil) }

    /// ``problems``, where a line for a function the program never calls (one of `callees`,
    /// when given) says so, with the nearest name it does call; without the lines no call took
    /// when `unusedLines` is false (a run stopped by a limit before it made its calls).
    package func problems(callees: [String]?, unusedLines: Bool = true) -> [String] {
        calls.withLock { c in
            let lines = c.waiting.values.joined().filter { !$0.isOptional && !$0.isLeftByFailure }.sorted {
                $0.line < $1.line
            }
            // One problem a function, its lines together: after an unexpected call, the lines of
            // the calls the run then did not make would each take a line of their own.
            var names: [String] = []
            var linesOf: [String: [Int]] = [:]
            for mock in lines {
                if linesOf[mock.name] == nil { names.append(mock.name) }
                linesOf[mock.name, default: []].append(mock.line)
            }
            let unused = names.map { name in
                let numbers = linesOf[name] ?? []
                var problem =
                    numbers.count == 1
                    ? "line \(numbers[0]) of \(source) (\(name)) was not used"
                    : "lines \(Self.listed(numbers)) of \(source) (\(name)) were not used"
                if let callees, !callees.contains(name) {
                    problem += ": the program calls no '\(name)'"
                    problem += Suggestions.didYouMean(name, in: callees)
                }
                return problem
            }
            return c.unexpected + (unusedLines ? unused : [])
        }
    }

    /// The outcome of a `"pending": true` line, a call that never answers.
    ///
    /// Its task waits (on the virtual clock too, which moves on without it) until it is
    /// cancelled, as when a `race`'s timeout wins, or the run ends.
    package static let neverAnswers = SagaError(kind: "\u{0}pending", message: "the call never answers")

    /// Line numbers as a reader counts them: `3 and 4`, `3, 4 and 7`.
    private static func listed(_ numbers: [Int]) -> String {
        guard let last = numbers.last, numbers.count > 1 else { return numbers.first.map(String.init) ?? "" }
        return numbers.dropLast().map(String.init).joined(separator: ", ") + " and \(last)"
    }

    /// A list's elements, `, ` between them.
    private static func listed(_ value: Value) -> String {
        guard case .list(let elements) = value else { return value.canonicalJSON }
        return elements.map(\.canonicalJSON).joined(separator: ", ")
    }
}
