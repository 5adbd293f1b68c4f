import Dispatch
import Foundation
import SagaCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One process started by `exec` or `sh`: its output read as it comes, a limit on its size,
/// a timeout, and termination when the calling task is cancelled (SIGTERM, then SIGKILL
/// after ``ProcessLifetime/gracePeriod``).
///
/// Every child alive is in its library's ``ChildProcesses``, so that the library can end them
/// when the run ends: no child outlives the run.
final class ChildProcess: Sendable {
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
        /// Its status, once it has exited and been collected.
        var status: Int32?
        var finished: CheckedContinuation<Void, Never>?
        var done = false
    }

    private let lifetime: ProcessLifetime
    private let state = Mutex(State())
    private let maxLength: Int

    private init(pid: pid_t, maxLength: Int) {
        self.lifetime = ProcessLifetime(pid: pid)
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

    /// Runs `executable` with `arguments` (the first is the program's name) to its end, or
    /// until the calling task is cancelled or `timeout` (milliseconds) passes.
    ///
    /// - Throws: why it could not start.
    static func run(
        executable: String, arguments: [String], stdin: Data?, environment: [String: String], folder: String?,
        timeout: Int?, maxLength: Int, in alive: ChildProcesses
    ) async throws(SpawnedProcess.Failure) -> Outcome {
        HostLibrary.ignoreBrokenPipes
        // No child starts once the run is over; one that starts meanwhile is counted, so that
        // the end of the run waits for it and ends it too.
        guard alive.beginStart() else { throw SpawnedProcess.Failure(message: "the run is over") }
        let spawned: SpawnedProcess
        do {
            spawned = try SpawnedProcess.start(
                executable: executable, arguments: arguments, environment: environment, folder: folder,
                pipeInput: stdin != nil, pipeErrors: true)
        } catch {
            alive.endStart(nil, 0)
            throw error
        }
        let child = ChildProcess(pid: spawned.pid, maxLength: maxLength)
        alive.endStart(child, spawned.pid)
        defer { alive.remove(spawned.pid) }
        // Blocking writes and reads run on threads of their own: on the global queues, whose
        // threads run Swift tasks too, two processes' pipes would hold every thread of a
        // two-core machine, and no saga's timer would fire until they ended.
        if let input = spawned.input, let stdin {
            Thread {
                stdin.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let n = write(input, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                        if n > 0 {
                            offset += n
                        } else if n < 0, errno != EINTR {
                            break
                        }
                    }
                }
                close(input)
            }.start()
        }
        child.drain(spawned.output, isError: false)
        if let errors = spawned.errors { child.drain(errors, isError: true) }
        let reaper = Thread { child.exited(child.lifetime.waitAndCollect()) }
        reaper.start()
        if let timeout {
            // Weak, as the timer of `terminate()`: a pending timer must not keep an ended child.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(timeout)) { [weak child] in
                child?.timeUp()
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = child.state.withLock { s -> Bool in
                    if s.status != nil && s.streamsOpen == 0 { return true }
                    s.finished = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            child.terminate()
        }
        return child.state.withLock { s in
            Outcome(
                status: s.status ?? -1, stdout: s.stdout, stderr: s.stderr, overflowed: s.overflowed,
                timedOut: s.timedOut)
        }
    }

    /// Reads `fd` to its end on a thread of its own, terminating the child once the output
    /// passes the limit.
    private func drain(_ fd: Int32, isError: Bool) {
        Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                let over = state.withLock { s -> Bool in
                    if s.overflowed { return true }
                    let count = (isError ? s.stderr.count : s.stdout.count) + n
                    if count > maxLength {
                        s.overflowed = true
                        return true
                    }
                    if isError {
                        s.stderr.append(contentsOf: buffer[0..<n])
                    } else {
                        s.stdout.append(contentsOf: buffer[0..<n])
                    }
                    return false
                }
                if over {
                    terminate()
                    break
                }
            }
            close(fd)
            let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
                s.streamsOpen -= 1
                return takeContinuation(&s)
            }
            continuation?.resume()
        }.start()
    }

    /// The process exited with `status`, and was collected.
    private func exited(_ status: Int32) {
        let continuation = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.status = status
            return takeContinuation(&s)
        }
        continuation?.resume()
    }

    /// The waiting continuation, once the process has exited and both streams are read.
    private func takeContinuation(_ s: inout State) -> CheckedContinuation<Void, Never>? {
        guard s.status != nil, s.streamsOpen == 0, !s.done, let continuation = s.finished else { return nil }
        s.done = true
        s.finished = nil
        return continuation
    }

    /// The timeout passed.
    private func timeUp() {
        let running = state.withLock { s -> Bool in
            if s.status != nil { return false }
            s.timedOut = true
            return true
        }
        if running { terminate() }
    }

    /// Sends SIGTERM, then SIGKILL if the process is still there after the grace period.
    func terminate() {
        lifetime.terminate()
    }

    /// Kills the process if it still runs.
    func killNow() {
        lifetime.signal(SIGKILL)
    }
}

/// The processes one ``HostLibrary`` started that have not ended, by process id.
final class ChildProcesses: Sendable {
    private struct State {
        var alive: [Int32: ChildProcess] = [:]
        /// Children being started: between the check that the run goes on and their entry here.
        var starting = 0
        /// Set when the run is over: no child starts any more.
        var isOver = false
    }

    private let state = Mutex(State())

    /// Whether a child may start (the run is not over); if so, it is counted until
    /// ``endStart(_:_:)``.
    func beginStart() -> Bool {
        state.withLock { s in
            if s.isOver { return false }
            s.starting += 1
            return true
        }
    }

    /// Enters a child counted by ``beginStart()`` once it has started (`nil`: it failed to).
    ///
    /// One that started as the run ended is ended at once.
    func endStart(_ child: ChildProcess?, _ pid: Int32) {
        let late = state.withLock { s -> Bool in
            s.starting -= 1
            guard let child else { return false }
            s.alive[pid] = child
            return s.isOver
        }
        if late { child?.killNow() }
    }

    func remove(_ pid: Int32) {
        _ = state.withLock { $0.alive.removeValue(forKey: pid) }
    }

    /// Kills every child still alive (the run is over), and those being started, once they have
    /// started: none starts after this.
    func terminateAll() {
        state.withLock { $0.isOver = true }
        // A start under way is a `posix_spawn` call away from its entry: waited for, briefly.
        for _ in 0..<2000 where state.withLock({ $0.starting > 0 }) { usleep(1000) }
        for child in state.withLock({ Array($0.alive.values) }) { child.killNow() }
    }
}
