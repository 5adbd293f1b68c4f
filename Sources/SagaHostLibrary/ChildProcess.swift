import Dispatch
import Foundation
import SagaCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One process started by `exec` or `sh`: its output read as it comes, a limit on its size,
/// a timeout, and termination when the calling task is cancelled (SIGTERM, then SIGKILL
/// after ``gracePeriod``).
///
/// Every child alive is in its library's ``ChildProcesses``, so that the library can end them
/// when the run ends: no child outlives the run.
///
/// `@unchecked Sendable`: its own state is behind a mutex, and of the `Process` it reads only
/// what Foundation guards with the process's lock (whether it runs, its id and status).
final class ChildProcess: @unchecked Sendable {
    /// How long a terminated child has to exit before it is killed.
    static let gracePeriod: DispatchTimeInterval = .seconds(2)

    /// What the child gave: its exit status and output.
    struct Outcome {
        /// The exit status, or 128 plus the signal's number when a signal ended it.
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// Set when a stream passed the size limit (the child was then terminated).
        var overflowed: Bool
        var timedOut: Bool
    }

    private struct State {
        var stdout = Data()
        var stderr = Data()
        var overflowed = false
        var timedOut = false
        var streamsOpen = 2
        var exited = false
        var finished: CheckedContinuation<Void, Never>?
        var done = false
    }

    private let process: Process
    private let state = Mutex(State())
    private let maxLength: Int

    private init(process: Process, maxLength: Int) {
        self.process = process
        self.maxLength = maxLength
    }

    /// The path of the program `name` runs: `name` itself when it has a `/`, else the first
    /// executable of that name in `PATH`.
    static func resolve(_ name: String, path: String?) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = String(folder) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments` to its end, or until the calling task is cancelled
    /// or `timeout` (milliseconds) passes.
    ///
    /// - Throws: what starting it threw (a folder that does not exist, say).
    static func run(
        executable: String, arguments: [String], stdin: Data?, environment: [String: String]?,
        folder: String?, timeout: Int?, maxLength: Int, in alive: ChildProcesses
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe()
        let err = Pipe()
        let input = stdin.map { _ in Pipe() }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input ?? FileHandle.nullDevice
        let child = ChildProcess(process: process, maxLength: maxLength)
        process.terminationHandler = { _ in child.exited() }
        try process.run()
        let pid = process.processIdentifier
        alive.add(child, pid)
        defer { alive.remove(pid) }
        // Closed on this side, so that the child's end of each pipe is the only writer left.
        try? out.fileHandleForWriting.close()
        try? err.fileHandleForWriting.close()
        if let input, let stdin {
            DispatchQueue.global().async {
                try? input.fileHandleForWriting.write(contentsOf: stdin)
                try? input.fileHandleForWriting.close()
            }
        }
        child.drain(out.fileHandleForReading, isError: false)
        child.drain(err.fileHandleForReading, isError: true)
        if let timeout {
            // Weak, as the timers below: a pending timer must not keep an ended child alive.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeout)) { [weak child] in
                child?.timeUp()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = child.state.withLock { s -> Bool in
                    if s.exited && s.streamsOpen == 0 { return true }
                    s.finished = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            child.terminate()
        }
        // The handler holds the child, which holds the process: let go of it.
        process.terminationHandler = nil
        return child.state.withLock { s in
            Outcome(
                status: child.status, stdout: s.stdout, stderr: s.stderr, overflowed: s.overflowed,
                timedOut: s.timedOut)
        }
    }

    /// The exit status, or 128 plus the signal that ended the process.
    private var status: Int32 {
        process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Reads `handle` to its end on a thread of its own, terminating the child once the
    /// output passes the limit.
    private func drain(_ handle: FileHandle, isError: Bool) {
        DispatchQueue.global().async { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let over = state.withLock { s -> Bool in
                    if s.overflowed { return true }
                    let count = (isError ? s.stderr.count : s.stdout.count) + chunk.count
                    if count > maxLength {
                        s.overflowed = true
                        return true
                    }
                    if isError { s.stderr.append(chunk) } else { s.stdout.append(chunk) }
                    return false
                }
                if over {
                    terminate()
                    break
                }
            }
            try? handle.close()
            let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
                s.streamsOpen -= 1
                return takeContinuation(&s)
            }
            continuation?.resume()
        }
    }

    /// The process exited.
    private func exited() {
        let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.exited = true
            return takeContinuation(&s)
        }
        continuation?.resume()
    }

    /// The waiting continuation, once the process has exited and both streams are read.
    private func takeContinuation(_ s: inout State) -> CheckedContinuation<Void, Never>? {
        guard s.exited, s.streamsOpen == 0, !s.done, let continuation = s.finished else { return nil }
        s.done = true
        s.finished = nil
        return continuation
    }

    /// The timeout passed.
    private func timeUp() {
        let running = state.withLock { s -> Bool in
            if s.exited { return false }
            s.timedOut = true
            return true
        }
        if running { terminate() }
    }

    /// Sends SIGTERM, then SIGKILL if the process is still there after the grace period.
    func terminate() {
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        Glibc.kill(pid, SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.gracePeriod) { [weak self] in
            if let self, process.isRunning { Glibc.kill(pid, SIGKILL) }
        }
    }

    /// Kills the process if it still runs.
    func killNow() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }
}

/// The processes one ``HostLibrary`` started that have not ended, by process id.
final class ChildProcesses: Sendable {
    private let alive = Mutex<[Int32: ChildProcess]>([:])

    func add(_ child: ChildProcess, _ pid: Int32) {
        alive.withLock { $0[pid] = child }
    }

    func remove(_ pid: Int32) {
        _ = alive.withLock { $0.removeValue(forKey: pid) }
    }

    /// Kills every child still alive (the run is over).
    func terminateAll() {
        for child in alive.withLock({ Array($0.values) }) { child.killNow() }
    }
}
