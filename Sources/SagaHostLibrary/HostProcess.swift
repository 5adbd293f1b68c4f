import Dispatch
import Foundation
import SagaCore
import SagaRuntime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Host functions served by a long-lived process of any language, which speaks JSON lines on
/// its standard input and output (`sagarun run --host NAME=COMMAND`).
///
/// Each call is one line to the process, `{"id": 1, "call": "api.fetchUser", "args": [7]}`,
/// and the process answers, in any order, with `{"id": 1, "result": …}` or
/// `{"id": 1, "error": {"kind": …, "message": …}}` (a string error is a message). A call whose
/// task is cancelled sends `{"id": 1, "cancel": true}` and takes no answer. What the process
/// writes to its standard error passes through.
///
/// An answer `{"id": 1, "channel": "ticks"}` gives the call a new `EventChannel` named
/// `ticks`, which the process then feeds with `{"channel": "ticks", "value": …}` lines and closes
/// with `{"channel": "ticks", "close": true}`; when the saga closes it first, the process gets
/// that close line.
///
/// The process starts at the first call and ends with ``stop()``. If it exits, or writes a line
/// that is not an answer to a call in flight, the calls in flight and every later call fail
/// with a `HostError` that says why.
public final class HostProcess: Sendable {
    /// The name its functions go by: `NAME`, and any `NAME.something`.
    public let name: String
    /// The shell command line that starts it.
    public let command: String

    private struct State {
        /// The process, once started.
        var process: ProcessLifetime?
        /// The write end of its standard input.
        var input: Int32?
        var nextID = 1
        var waiting: [Int: CheckedContinuation<Result<Value, SagaError>, Never>] = [:]
        /// Why it can no longer take calls, once it cannot.
        var broken: String?
        /// The event channels its answers opened and that are still open, by name.
        var channels: [String: EventChannel] = [:]
        /// The name of every event channel its answers opened: a line for one of them that has
        /// closed meanwhile is dropped, and a line for any other name is not an answer.
        var channelNames: Set<String> = []
    }

    private let state = Mutex(State())
    /// Held while a line is written, so that lines of calls made at once do not interleave.
    private let writing = Mutex(())

    /// A process started by `command` (run by `/bin/sh -c`) at the first call of a function
    /// named `name` or `name.…`.
    public init(name: String, command: String) {
        self.name = name
        self.command = command
    }

    /// Whether calls of `function` go to this process.
    public func serves(_ function: String) -> Bool {
        function == name || function.hasPrefix(name + ".")
    }

    /// `host` with each of `functions` that this process serves registered to call it.
    public func register(_ functions: [String], in host: inout HostFunctions) {
        for function in functions where serves(function) {
            host.register(function) { [self] args in try await call(function, args) }
        }
    }

    /// Ends the process: its input is closed, then it is terminated (SIGTERM, then SIGKILL
    /// after the grace period).
    public func stop() {
        let (input, process) = state.withLock { s -> (Int32?, ProcessLifetime?) in
            if s.broken == nil { s.broken = "the run is over" }
            defer { s.input = nil }
            return (s.input, s.process)
        }
        if let input { writing.withLock { _ in _ = close(input) } }
        process?.terminate()
        failAll("the run is over")
    }

    /// Calls `function` in the process and waits for its answer.
    func call(_ function: String, _ args: [Value]) async throws(SagaError) -> Value {
        let id = try start()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, SagaError>, Never>) in
                let (input, broken) = state.withLock { s -> (Int32?, String?) in
                    if let broken = s.broken { return (nil, broken) }
                    s.waiting[id] = continuation
                    return (s.input, nil)
                }
                if let broken {
                    continuation.resume(returning: .failure(failure(broken)))
                    return
                }
                send(["id": .int(id), "call": .string(function), "args": .list(args)], on: input)
            }
        } onCancel: {
            let (continuation, input) = state.withLock { ($0.waiting.removeValue(forKey: id), $0.input) }
            guard let continuation else { return }
            send(["id": .int(id), "cancel": true], on: input)
            continuation.resume(returning: .failure(SagaError(kind: "Cancelled", message: "\(function) was cancelled")))
        }
        return try result.get()
    }

    /// Starts the process if it is not running, and gives the next call's id.
    private func start() throws(SagaError) -> Int {
        HostLibrary.ignoreBrokenPipes
        let outcome = state.withLock { s -> Result<Int, SagaError> in
            if let broken = s.broken { return .failure(failure(broken)) }
            if s.process == nil {
                let spawned: SpawnedProcess
                do throws(SpawnedProcess.Failure) {
                    spawned = try SpawnedProcess.start(
                        executable: "/bin/sh", arguments: ["/bin/sh", "-c", command],
                        environment: ProcessInfo.processInfo.environment, folder: nil, pipeInput: true,
                        pipeErrors: false)
                } catch {
                    s.broken = "cannot start: \(error.message)"
                    return .failure(failure(s.broken ?? ""))
                }
                let process = ProcessLifetime(pid: spawned.pid)
                s.process = process
                s.input = spawned.input
                let output = spawned.output
                // The process's end is reported by the reader, once it has read everything the
                // process wrote: answers still in the pipe when the process exits are answers.
                let collected = DispatchSemaphore(value: 0)
                Thread { [self] in read(output, process, collected) }.start()
                Thread {
                    _ = process.waitAndCollect()
                    collected.signal()
                }.start()
            }
            defer { s.nextID += 1 }
            return .success(s.nextID)
        }
        return try outcome.get()
    }

    /// Writes one JSON line to the process, whole: lines of calls made at once do not mix.
    ///
    /// A write that fails is found out by the reader, when the process has gone.
    private func send(_ message: Value, on input: Int32?) {
        guard let input else { return }
        let bytes = Array((message.canonicalJSON + "\n").utf8)
        writing.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(input, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
                if n > 0 {
                    offset += n
                } else if n < 0, errno != EINTR {
                    return
                }
            }
        }
    }

    /// Reads the process's answers until its output ends; then the process is given a moment
    /// to exit, so that its status is what the calls and channels it leaves report.
    private func read(_ fd: Int32, _ process: ProcessLifetime, _ collected: DispatchSemaphore) {
        defer { close(fd) }
        // The bytes of lines not yet ended. Only the bytes read since the last search are
        // searched for a line's end, and the lines taken leave the buffer once per read: a
        // long answer is read in time that grows with its length, not its square.
        var buffer: [UInt8] = []
        var searched = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
            var start = 0
            while let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                searched = start
                if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
                if let problem = answer(line) {
                    exited("answered with \(problem): \(line.prefix(200))")
                    return
                }
            }
            buffer.removeFirst(start)
            searched = buffer.count
            // A line without end would fill memory: an answer is limited as an input line is.
            if buffer.count > Self.longestLine {
                exited("answered with a line longer than \(Self.longestLine >> 20) MiB")
                return
            }
        }
        guard collected.wait(timeout: .now() + Self.exitWait) == .success, let status = process.exitStatus else {
            return exited("closed its output")
        }
        exited("exited with status \(status)")
    }

    /// The longest line the process may write, as the longest input line.
    static let longestLine = 16 << 20

    /// How long a process whose output ended has to exit before its calls fail without its status.
    static let exitWait: DispatchTimeInterval = .milliseconds(500)

    /// Delivers one answer, or one event of a channel.
    ///
    /// - Returns: `nil` if the line was one; otherwise what it is instead (for the message that
    ///   breaks the process), as "a line that …".
    private func answer(_ line: String) -> String? {
        let message: Value
        do {
            message = try JSONReader.parse(line)
        } catch {
            return "a line that cannot be read as JSON (\(error))"
        }
        let notAnAnswer = "a line that is not an answer to a call in flight"
        guard case .record(let r) = message else { return notAnAnswer }
        if r["id"] == nil, case .string(let name)? = r["channel"] {
            return channelEvent(r, name) ? nil : notAnAnswer
        }
        guard case .int(let id)? = r["id"] else {
            return notAnAnswer + (r["id"] == nil ? " (it has no \"id\")" : " (its \"id\" is not an integer)")
        }
        let result: Result<Value, SagaError>
        if let error = r["error"] {
            if r["result"] != nil { return notAnAnswer + " (an answer has a \"result\" or an \"error\", not both)" }
            result = .failure(SagaError.host(error))
        } else if let value = r["result"] {
            result = .success(value)
        } else if case .string(let name)? = r["channel"], !name.isEmpty {
            result = .success(openChannel(name).value)
        } else {
            // `cat` echoes the call back: an answer needs its result or its error.
            return notAnAnswer + " (an answer has a \"result\" or an \"error\")"
        }
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        // An answer to a call cancelled meanwhile is dropped; one to no call at all is not an answer.
        guard let continuation else { return id > 0 && id < state.withLock { $0.nextID } ? nil : notAnAnswer }
        continuation.resume(returning: result)
        return nil
    }

    /// An event channel the process answered a call with: its `close` from the saga's side is
    /// written to the process.
    private func openChannel(_ name: String) -> EventChannel {
        let channel = EventChannel(named: name) { [weak self] in self?.sagaClosed(name) }
        state.withLock { s in
            s.channels[name] = channel
            s.channelNames.insert(name)
        }
        return channel
    }

    /// `{"channel": NAME, "value": …}` or `{"channel": NAME, "close": true}` from the process.
    private func channelEvent(_ r: Record, _ name: String) -> Bool {
        let (channel, known) = state.withLock { s in
            (s.channels[name], s.channelNames.contains(name))
        }
        guard known else { return false }
        if let value = r["value"] {
            channel?.send(value)
            return true
        }
        guard r["close"] == .bool(true) else { return false }
        state.withLock { _ = $0.channels.removeValue(forKey: name) }
        channel?.close()
        return true
    }

    /// The saga, or the end of the run, closed the channel `name`: the process is told, unless
    /// it closed the channel itself or has gone.
    private func sagaClosed(_ name: String) {
        let input = state.withLock { s -> Int32?? in
            guard let channel = s.channels[name], channel.isClosed else { return nil }
            s.channels[name] = nil
            return .some(s.input)
        }
        if let input { send(["channel": .string(name), "close": true], on: input) }
    }

    /// The process can no longer take calls: every call in flight fails, and so does a
    /// `take` of each event channel it left open, once that channel's buffer is empty.
    private func exited(_ why: String) {
        let channels = state.withLock { s -> [EventChannel] in
            if s.broken == nil { s.broken = why }
            defer { s.channels = [:] }
            return Array(s.channels.values)
        }
        for channel in channels { channel.close(throwing: failure(why)) }
        failAll(why)
    }

    private func failAll(_ why: String) {
        let waiting = state.withLock { s -> [CheckedContinuation<Result<Value, SagaError>, Never>] in
            defer { s.waiting = [:] }
            return Array(s.waiting.values)
        }
        for continuation in waiting { continuation.resume(returning: .failure(failure(why))) }
    }

    private func failure(_ why: String) -> SagaError {
        SagaError(kind: "HostError", message: "the host process '\(name)' (\(command)) \(why)")
    }
}
