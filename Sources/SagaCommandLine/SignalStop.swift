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
/// process at once, as the signal's default action does.
final class SignalStop: Sendable {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    private let received = Atomic<Int32>(0)
    // The sources are made, resumed and cancelled on the command's thread only.
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []

    private init() {}

    /// Handles the signals from now on: each asks `request`'s run to stop.
    ///
    /// It returns once every source is registered: until then the signals are ignored (the
    /// source alone sees one, once registered), so a run begins only when they stop it.
    static func start(stopping request: StopRequest) async -> SignalStop {
        let stop = SignalStop()
        for number in signals {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            // The handler holds its source (for its count) until ``end()`` cancels the source,
            // which lets go of the handler.
            source.setEventHandler { [stop, source] in
                // A second signal ends the process at once: the way out of a saga that never
                // lets the run take a turn (an endless loop without an effect). Two signals
                // close together may come as one event that counts them.
                let count = source.data
                if stop.received.exchange(number, ordering: .relaxed) != 0 || count > 1 {
                    // Its default action, on this thread, which blocks it otherwise.
                    Glibc.signal(number, SIG_DFL)
                    var only = sigset_t()
                    sigemptyset(&only)
                    sigaddset(&only, number)
                    pthread_sigmask(SIG_UNBLOCK, &only, nil)
                    Glibc.raise(number)
                }
                let note = "sagarun: stopping (a second signal ends it at once)\n"
                _ = note.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, note.utf8.count) }
                request.ask()
            }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            stop.sources.append(source)
        }
        return stop
    }

    /// The signal that stopped the run, if one did.
    var signal: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Stops handling the signals: their default actions again.
    func end() {
        for source in sources { source.cancel() }
        sources = []
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
    }
}
