import Synchronization

/// A stop of a run, asked for from any thread (a signal handler, another task): the run loop
/// sees it at its next turn, woken if it waits.
package final class StopRequest: Sendable {
    private let asked = Atomic<Bool>(false)
    private let wake: Signal

    init(waking wake: Signal) {
        self.wake = wake
    }

    /// Asks the run to stop, and wakes it if it waits.
    package func ask() {
        asked.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// Whether a stop was asked for.
    var isAsked: Bool { asked.load(ordering: .relaxed) }
}
