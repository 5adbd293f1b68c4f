import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A process started with `posix_spawn`, its standard streams on pipes: what `exec`, `sh` and
/// `--host` run. (Foundation's `Process` keeps every process it starts alive for the rest of
/// the run on Linux, which a long script that runs many commands cannot afford.)
struct SpawnedProcess {
    /// Why a process did not start.
    struct Failure: Error {
        var message: String
    }

    let pid: pid_t
    /// The write end of its standard input, when it has one of its own (`/dev/null` otherwise).
    let input: Int32?
    /// The read end of its standard output.
    let output: Int32
    /// The read end of its standard error, unless it writes to ours.
    let errors: Int32?

    /// Starts a process.
    ///
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments, the first being the program's name.
    ///   - environment: its whole environment.
    ///   - folder: the folder it starts in, if not this process's.
    ///   - pipeInput: give it a pipe for standard input (``input``), not `/dev/null`.
    ///   - pipeErrors: give it a pipe for standard error (``errors``), not ours.
    /// - Returns: the process and our ends of its pipes.
    /// - Throws: ``Failure`` when a pipe cannot be made or the program cannot start.
    static func start(
        executable: String, arguments: [String], environment: [String: String], folder: String?,
        pipeInput: Bool, pipeErrors: Bool
    ) throws(Failure) -> SpawnedProcess {
        var pipes: [Int32] = []
        func newPipe() throws(Failure) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else {
                throw Failure(message: "cannot make a pipe: \(String(cString: strerror(errno)))")
            }
            pipes += ends
            // Ours close on exec: the child keeps only the ends duplicated onto 0, 1 and 2.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
        func closeAll() { for fd in pipes { close(fd) } }
        let stdin = pipeInput ? try newPipe() : nil
        let stdout: (read: Int32, write: Int32)
        let stderr: (read: Int32, write: Int32)?
        do throws(Failure) {
            stdout = try newPipe()
            stderr = pipeErrors ? try newPipe() : nil
        } catch {
            closeAll()
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        if let stderr { posix_spawn_file_actions_adddup2(&actions, stderr.write, 2) }
        if let folder {
            guard let addChdir = Self.addChdir else {
                closeAll()
                throw Failure(message: "this system cannot start a process in another folder")
            }
            _ = folder.withCString { addChdir(&actions, $0) }
        }

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // The child starts with no signal blocked and every signal's default action: the
        // threads of this process block most signals and ignore SIGPIPE, and a child would
        // inherit both, so that SIGTERM or SIGINT could not end it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        sigdelset(&everySignal, SIGKILL)
        sigdelset(&everySignal, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        // A process group of its own, which its signals go to: a shell's children (`sh -c
        // "python3 host.py"` forks Python rather than becoming it) end with it.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        // The child's ends are the child's now.
        if let stdin { close(stdin.read) }
        close(stdout.write)
        if let stderr { close(stderr.write) }
        guard status == 0 else {
            if let stdin { close(stdin.write) }
            close(stdout.read)
            if let stderr { close(stderr.read) }
            throw Failure(message: String(cString: strerror(status)))
        }
        return SpawnedProcess(pid: pid, input: stdin?.write, output: stdout.read, errors: stderr?.read)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which Swift's Glibc
    /// module does not show.
    private static let addChdir:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")
            else {
                return nil
            }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)
                    .self)
        }()

    /// Waits for the process to end (blocking the calling thread), leaving it to ``reap(_:)``:
    /// until then its number cannot be another process's, so a signal sent meanwhile is safe.
    static func waitForExit(_ pid: pid_t) {
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
    }

    /// Collects the ended process and gives its exit status, or 128 plus the signal that
    /// ended it.
    static func reap(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// A started process's signals and its end, as `exec`, `sh` and `--host` share them.
///
/// A signal goes only while the process has not been collected, since its number may be
/// another process's afterwards. It goes to the process group the process leads: the
/// processes it started end with it.
final class ProcessLifetime: Sendable {
    /// How long a terminated process has to exit before it is killed.
    static let gracePeriod: DispatchTimeInterval = .seconds(2)

    let pid: pid_t
    /// Its status once it has been collected.
    private let status = Mutex<Int32?>(nil)

    init(pid: pid_t) {
        self.pid = pid
    }

    /// Blocks the calling thread until the process ends, then collects it, under the lock that
    /// ``signal(_:)`` takes, and gives its status.
    func waitAndCollect() -> Int32 {
        SpawnedProcess.waitForExit(pid)
        return status.withLock { status in
            let collected = SpawnedProcess.reap(pid)
            status = collected
            return collected
        }
    }

    /// Whether it has ended and been collected.
    var hasEnded: Bool { status.withLock { $0 != nil } }

    /// Its exit status (128 + the signal's number for a signal) once it has been collected.
    var exitStatus: Int32? { status.withLock { $0 } }

    /// Sends `number` to the process and its process group (the processes it started, which
    /// stay in its group unless they leave it), unless the process has been collected.
    func signal(_ number: Int32) {
        status.withLock { status in
            if status == nil { _ = kill(-pid, number) }
        }
    }

    /// Sends SIGTERM, then SIGKILL if the process is still there after ``gracePeriod``.
    func terminate() {
        signal(SIGTERM)
        // Weak: a pending timer must not keep an ended process's object alive.
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.gracePeriod) { [weak self] in
            self?.signal(SIGKILL)
        }
    }
}
