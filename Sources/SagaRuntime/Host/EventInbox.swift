import SagaCore
import Synchronization

/// What event channels' hosts have sent, for the scheduler to deliver: posted from any
/// thread, taken by the scheduler at its next turn, in the order posted.
final class EventInbox: Sendable {
    /// One thing a host did to a channel.
    enum Event: Sendable {
        case message(Channel, Value)
        /// Closed, with the error a `take` throws once the buffer is empty, or `nil` for END.
        case close(Channel, SagaError?)
    }

    private let events = Mutex<[Event]>([])
    /// Set whenever something is posted, so that the run loop reads the lock only then.
    private let posted = Atomic<Bool>(false)
    /// Wakes the scheduler.
    private let wake: Signal

    init(wake: Signal) { self.wake = wake }

    /// Posts an event and wakes the scheduler.
    func post(_ event: Event) {
        events.withLock { $0.append(event) }
        posted.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Whether anything was posted since the last ``takeAll()``.
    @inline(__always)
    var hasPosted: Bool { posted.load(ordering: .relaxed) }

    /// The events posted since the last call, oldest first.
    func takeAll() -> [Event] {
        guard posted.load(ordering: .relaxed), posted.exchange(false, ordering: .acquiring) else { return [] }
        return events.withLock { e in
            defer { e.removeAll() }
            return e
        }
    }
}
