import SagaCore
import SagaStore
import Synchronization

/// Runs one controller's work one piece at a time, and hands its results to the
/// interpreter (``attach(_:)``), which dispatches them at its turn, when every saga waits.
///
/// Why not deliver straight into the store: a saga written in Swift is between two effects
/// while the interpreter awaits it, and an action dispatched then would pass its `take` by.
/// Why one piece at a time: two saves of the same album must reach the disk in the order
/// the saga put them, or an older song count could win.
final class InterpreterWorkScheduler<Action: Sendable>: AsyncWorkScheduler {
    private struct Links: ~Copyable {
        var target: (any AsyncWorkScheduler<Value>)?
        var last: Task<[Action], Never>?
    }

    private let links = Mutex(Links())
    private let deliver: @Sendable (Action) -> Value

    /// A scheduler whose results reach the interpreter as `deliver` makes them.
    init(deliver: @escaping @Sendable (Action) -> Value) {
        self.deliver = deliver
    }

    /// Sends results to `interpreterWork` (an interpreter's `asyncWork`) from now on.
    func attach(_ interpreterWork: some AsyncWorkScheduler<Value>) {
        links.withLock { $0.target = interpreterWork }
    }

    func schedule(_ work: @escaping @Sendable () async -> [Action]) {
        let (target, piece) = links.withLock { links -> ((any AsyncWorkScheduler<Value>)?, Task<[Action], Never>) in
            let previous = links.last
            let piece = Task {
                _ = await previous?.value
                return await work()
            }
            links.last = piece
            return (links.target, piece)
        }
        let deliver = self.deliver
        target?.schedule { await piece.value.map(deliver) }
    }
}
