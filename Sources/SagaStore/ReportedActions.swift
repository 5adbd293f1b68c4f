import Synchronization

/// A one-shot slot for the actions of work started with
/// ``AsyncWorkScheduler/schedule(reporting:)``: filled once from any thread, awaited once.
final class ReportedActions<Action: Sendable>: Sendable {
    private enum Slot {
        case empty
        case filled([Action])
        case awaited(CheckedContinuation<[Action], Never>)
        case taken
    }

    private let slot = Mutex(Slot.empty)

    /// Stores the actions, or hands them to the waiter.
    ///
    /// A second call is ignored.
    func fulfil(_ actions: [Action]) {
        let waiter = slot.withLock { slot -> CheckedContinuation<[Action], Never>? in
            switch slot {
            case .empty:
                slot = .filled(actions)
                return nil
            case .awaited(let c):
                slot = .taken
                return c
            case .filled, .taken:
                return nil
            }
        }
        waiter?.resume(returning: actions)
    }

    /// The actions, once ``fulfil(_:)`` has been called.
    func value() async -> [Action] {
        await withCheckedContinuation { (c: CheckedContinuation<[Action], Never>) in
            let ready = slot.withLock { slot -> [Action]? in
                if case .filled(let actions) = slot {
                    slot = .taken
                    return actions
                }
                slot = .awaited(c)
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }
}
