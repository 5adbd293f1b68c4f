import Dispatch
import Foundation
import SagaRuntime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM, while a run is under way: each stops the run as its end would.
///
/// The root sagas are cancelled and their `finally` blocks run, the store is closed,
/// `--record` and `--trace` are written and no child process is left; the command then exits
/// with 128 + the signal. The first signal says so on standard error; a second ends the
/// process at once, as the signal's default action does, unless the process that sent the
/// first sent it within a second: `timeout -s INT` signals its command, then the command's
/// process group, where a Ctrl-C in a terminal (sent by the kernel) comes once.
///
/// The signal handler only records the signal (who sent it, and when it arrived, which the
/// run's load cannot move) and wakes a dispatch source through a pipe; the source asks the run
/// to stop.
final class SignalStop: Sendable {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// The pipe the handler writes a byte to.
    private let wake: (read: Int32, write: Int32)
    // Made, resumed and cancelled on the command's thread only.
    private nonisolated(unsafe) var source: (any DispatchSourceRead)?

    private init(wake: (read: Int32, write: Int32)) {
        self.wake = wake
    }

    /// Handles the signals from now on: each asks `request`'s run to stop.
    ///
    /// Without a pipe (no file descriptors left) the signals keep their default actions.
    static func start(stopping request: StopRequest) -> SignalStop? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        let stop = SignalStop(wake: (fds[0], fds[1]))
        let arrivals = SignalArrivals.shared
        arrivals.reset(wakeFD: fds[1])
        let source = DispatchSource.makeReadSource(fileDescriptor: fds[0], queue: .global())
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 16)
            while read(fds[0], &bytes, bytes.count) > 0 {}
            let note = "sagarun: stopping (a second signal ends it at once)\n"
            _ = note.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, note.utf8.count) }
            request.ask()
        }
        source.setCancelHandler {
            close(fds[0])
            close(fds[1])
        }
        source.resume()
        stop.source = source
        for number in signals {
            var action = sigaction()
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            for other in signals { sigaddset(&action.sa_mask, other) }
            action.__sigaction_handler.sa_sigaction = handleStopSignal
            sigaction(number, &action, nil)
        }
        return stop
    }

    /// The signal that stopped the run, if one did.
    var signal: Int32? {
        let number = SignalArrivals.shared.received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Stops handling the signals: their default actions again.
    func end() {
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
        SignalArrivals.shared.wakeFD.store(-1, ordering: .relaxed)
        source?.cancel()
        source = nil
    }
}

/// What the signal handler records: in a shared object, since a signal handler captures
/// nothing; only atomics, which a handler may touch.
private final class SignalArrivals: Sendable {
    /// The one instance, made before a handler is installed (a global's first use is not for a
    /// signal handler to make).
    static let shared = SignalArrivals()

    /// The first signal received, or 0.
    let received = Atomic<Int32>(0)
    /// The first signal's sender (high 32 bits; 0 for the kernel: a terminal's Ctrl-C) and
    /// arrival (low 32 bits: milliseconds on the monotonic clock, never 0), or 0 before it:
    /// one word, so that the first signal is decided, sender and time with it, by one
    /// compare-and-exchange.
    let first = Atomic<UInt64>(0)
    /// The pipe's write end, or -1.
    let wakeFD = Atomic<Int32>(-1)

    func reset(wakeFD fd: Int32) {
        received.store(0, ordering: .relaxed)
        first.store(0, ordering: .relaxed)
        wakeFD.store(fd, ordering: .relaxed)
    }
}

/// The handler of SIGINT and SIGTERM: async-signal-safe calls only, and no global or static
/// made on first use (that would run `swift_once` here).
///
/// Two signals from the same process within a second are one stop: `timeout -s INT` signals
/// its command, then the command's process group.
private func handleStopSignal(
    _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    // A handler leaves errno as the code it interrupted had it.
    let savedErrno = errno
    defer { errno = savedErrno }
    let arrivals = SignalArrivals.shared
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let milliseconds = UInt32(truncatingIfNeeded: Int64(now.tv_sec) &* 1000 &+ Int64(now.tv_nsec) / 1_000_000)
    // A process's pid when a process sent it (kill, timeout); 0 for the kernel's.
    let sender: Int32 = info.map { $0.pointee.si_code <= 0 ? $0.pointee._sifields._kill.si_pid : 0 } ?? 0
    let stamp = UInt64(UInt32(bitPattern: sender)) << 32 | UInt64(max(milliseconds, 1))
    let (isFirst, earlier) = arrivals.first.compareExchange(expected: 0, desired: stamp, ordering: .relaxed)
    if isFirst {
        arrivals.received.store(number, ordering: .relaxed)
        var byte: UInt8 = 1
        let fd = arrivals.wakeFD.load(ordering: .relaxed)
        if fd >= 0 { _ = write(fd, &byte, 1) }
        return
    }
    let earlierSender = Int32(bitPattern: UInt32(truncatingIfNeeded: earlier >> 32))
    let elapsed = UInt32(truncatingIfNeeded: stamp) &- UInt32(truncatingIfNeeded: earlier)
    if sender != 0, sender == earlierSender, elapsed < 1000 { return }
    // A second signal ends the process at once: the way out of a saga that never lets the run
    // take a turn (an endless loop without an effect). Its default action, once this handler
    // returns and the signal is no longer blocked.
    Glibc.signal(number, SIG_DFL)
    Glibc.raise(number)
}
