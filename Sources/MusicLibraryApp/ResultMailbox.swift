import Synchronization

/// Holds the controllers' results while they travel through the interpreter as values.
///
/// A result's typed action (with its `StoreError`, its request) does not survive a trip
/// through a saga value, so the value carries a ticket and the action waits here until the
/// bridge turns the value back into it.
final class ResultMailbox: Sendable {
    private struct Slots: ~Copyable {
        var next = 0
        var actions: [Int: AppAction] = [:]
    }

    private let slots = Mutex(Slots())

    /// Keeps `action`; returns its ticket.
    func post(_ action: AppAction) -> Int {
        slots.withLock { s in
            s.next += 1
            s.actions[s.next] = action
            return s.next
        }
    }

    /// Takes the action of `ticket` out (`nil` if there is none, or it was collected).
    func collect(_ ticket: Int) -> AppAction? {
        slots.withLock { $0.actions.removeValue(forKey: ticket) }
    }
}
