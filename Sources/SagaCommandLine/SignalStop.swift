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
/// with 128 + the signal.
final class SignalStop: Sendable {
    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    private let received = Atomic<Int32>(0)
    // The sources are made, resumed and cancelled on the command's thread only.
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []

    /// Starts handling the signals: each asks `request`'s run to stop.
    init(stopping request: StopRequest) {
        for number in Self.signals {
            // Ignored as a default, so that the source alone sees it.
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                received.store(number, ordering: .relaxed)
                request.ask()
            }
            source.resume()
            sources.append(source)
        }
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
