import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process whose standard output and error are collected while it runs, so that it
/// can be killed at any moment and still tell what it printed before it died.
///
/// It is started with `posix_spawn` and reaped with `waitpid`, not with Foundation's
/// `Process`: on Linux, `Process` runs a shared manager thread whose run loop can exit under
/// the parallel test run and take the whole test process down with its `fatalError` (a
/// "signal code 4" in `closure #1 in closure #1 in static Process.setup()`).
///
/// A reader thread per stream drains the pipe as the child writes, so a chatty child never
/// blocks on a full pipe and nothing printed before the kill is lost.
final class ChildProcess: @unchecked Sendable {
    /// Why the child could not be started.
    struct SpawnError: Error, CustomStringConvertible {
        var step: String
        var code: Int32
        var description: String { "\(step) failed: \(String(cString: strerror(code)))" }
    }

    private let executable: String
    private let arguments: [String]
    /// Guards the output and the first-line flag.
    private let lock = NSLock()
    /// Guards `pid` and `waitStatus`; apart from `lock` so that a reader never waits on a reap.
    private let reapLock = NSLock()
    private var pid: pid_t = 0
    /// The `waitpid` status once the child was reaped.
    private var waitStatus: Int32?
    private var out: [UInt8] = []
    private var err: [UInt8] = []
    private let firstLine = DispatchSemaphore(value: 0)
    private var signalledFirstLine = false
    private let readersDone = DispatchGroup()

    /// A child to run `executable` with `arguments`, in the test process's own working folder
    /// (so paths in `arguments` should be absolute).
    init(executable: String, arguments: [String]) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Starts the child and its two reader threads.
    func start() throws {
        let outPipe = try Self.makePipe()
        let errPipe = try Self.makePipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The pipes are close-on-exec, so no other child spawned meanwhile inherits them (a
        // stray write end would keep a reader from ever seeing end-of-file); `dup2` gives the
        // child its own copies without that flag.
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(outPipe.write)
        close(errPipe.write)
        guard spawned == 0 else {
            close(outPipe.read)
            close(errPipe.read)
            throw SpawnError(step: "posix_spawn \(executable)", code: spawned)
        }
        reapLock.withLock { pid = child }
        drain(outPipe.read, isOutput: true)
        drain(errPipe.read, isOutput: false)
    }

    /// Waits until the child has printed a whole line, or `timeout` passed.
    ///
    /// - Returns: Whether a line came.
    func waitForFirstLine(timeout: Duration) -> Bool {
        let nanos =
            Int(timeout.components.seconds) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
        return firstLine.wait(timeout: .now() + .nanoseconds(nanos)) == .success
    }

    /// Sends SIGKILL (unless the child already ended), then waits for it and for its output.
    ///
    /// - Returns: Whether the child was still running when it was killed: false means it
    ///   ended on its own, which a saving loop never should.
    func kill() -> Bool {
        let child = reapLock.withLock { pid }
        guard child > 0 else { return false }
        let wasRunning = reap(blocking: false) == nil
        if wasRunning { _ = Foundation.kill(child, SIGKILL) }
        let status = reap(blocking: true)
        // The pipes reach end-of-file once the dead child's ends are closed; the wait is
        // bounded only in case a stray inherited descriptor keeps a write end open.
        _ = readersDone.wait(timeout: .now() + .seconds(5))
        return wasRunning && status.map(Self.signal(of:)) == SIGKILL
    }

    /// The lines of standard output that were printed in full (a line cut by the kill is left out).
    var completeLines: [String] {
        let bytes = lock.withLock { out }
        guard let lastNewline = bytes.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        return String(decoding: bytes[..<lastNewline], as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Everything the child wrote to standard error.
    var standardError: String { String(decoding: lock.withLock { err }, as: UTF8.self) }

    /// Sends `signal` to the child, and returns at once.
    func send(_ signal: Int32) {
        let child = reapLock.withLock { pid }
        if child > 0 { _ = Foundation.kill(child, signal) }
    }

    /// Sends `signal` to the child, waits for it to exit and for its output to end, and
    /// returns its exit code (`nil` if a signal ended it).
    ///
    /// A child still running after `patience` is killed (and `nil` returned), so that a child
    /// that ignored the signal fails the test instead of hanging the suite.
    func stop(with signal: Int32, patience: Duration = .seconds(30)) -> Int32? {
        let child = reapLock.withLock { pid }
        guard child > 0 else { return nil }
        _ = Foundation.kill(child, signal)
        return waitForExit(patience: patience)
    }

    /// ``stop(with:patience:)``, the signal sent by another process (`/bin/kill`) than the
    /// one that sent the signals before.
    func stop(with signal: Int32, fromAnotherProcess: Void, patience: Duration = .seconds(30)) throws -> Int32? {
        let child = reapLock.withLock { pid }
        guard child > 0 else { return nil }
        let killer = ChildProcess(executable: "/bin/kill", arguments: ["-\(signal)", "\(child)"])
        try killer.start()
        _ = killer.waitForExit(patience: patience)
        return waitForExit(patience: patience)
    }

    /// Waits for the child to exit and for its output to end, and returns its exit code
    /// (`nil` if a signal ended it); a child still running after `patience` is killed.
    func waitForExit(patience: Duration = .seconds(30)) -> Int32? {
        let child = reapLock.withLock { pid }
        guard child > 0 else { return nil }
        let deadline = ContinuousClock.now + patience
        var status = reap(blocking: false)
        while status == nil, ContinuousClock.now < deadline {
            usleep(10_000)
            status = reap(blocking: false)
        }
        guard let status else {
            _ = Foundation.kill(child, SIGKILL)
            _ = reap(blocking: true)
            return nil
        }
        _ = readersDone.wait(timeout: .now() + .seconds(5))
        return Self.signal(of: status) == 0 ? (status >> 8) & 0xff : nil
    }

    /// How the child ended, for failure messages.
    var exitDescription: String {
        guard let status = reap(blocking: false) else { return "still running" }
        let signal = Self.signal(of: status)
        return signal == 0 ? "exit \((status >> 8) & 0xff)" : "signal \(signal)"
    }

    /// The child's `waitpid` status, reaping it the first time it is known; nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        reapLock.lock()
        defer { reapLock.unlock() }
        if let waitStatus { return waitStatus }
        guard pid > 0 else { return nil }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
            if result == pid {
                waitStatus = status
                return status
            }
            if result == -1 && errno == EINTR { continue }
            return nil
        }
    }

    /// The signal that ended a child (`WTERMSIG`), or 0 when it exited (the macros do not
    /// come through to Swift).
    private static func signal(of status: Int32) -> Int32 {
        let low = status & 0x7f
        return low == 0x7f ? 0 : low
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SpawnError(step: "pipe", code: errno) }
        // Only this test spawns children, one at a time, so setting the flag after `pipe`
        // (`pipe2` does not come through to Swift) leaves no child to inherit the ends.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    private func drain(_ fd: Int32, isOutput: Bool) {
        readersDone.enter()
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = buffer[..<count]
                lock.withLock {
                    if isOutput {
                        out.append(contentsOf: chunk)
                        if !signalledFirstLine, chunk.contains(UInt8(ascii: "\n")) {
                            signalledFirstLine = true
                            firstLine.signal()
                        }
                    } else {
                        err.append(contentsOf: chunk)
                    }
                }
            }
            close(fd)
            readersDone.leave()
        }
        thread.start()
    }
}
