import Synchronization

/// Runs each controller's writes one at a time, in the order they were started: what a
/// ``PersistenceController`` that does not keep its own order gets by default.
final class WriteChain: Sendable {
    /// The chains of every controller, by the controller's identity.
    static let shared = WriteChain()

    /// The last write started for each controller, and how many are in flight.
    private let last = Mutex<[ObjectIdentifier: (task: Task<Void, Never>, count: Int)]>([:])

    /// Starts `work` for `owner` once its write before has finished.
    func append(for owner: AnyObject, _ work: @escaping @Sendable () async -> Void) {
        let key = ObjectIdentifier(owner)
        last.withLock { chains in
            let previous = chains[key]
            let task = Task {
                await previous?.task.value
                await work()
                self.finished(key)
            }
            chains[key] = (task, (previous?.count ?? 0) + 1)
        }
    }

    /// One write of `key` has finished: its chain goes once none is left.
    private func finished(_ key: ObjectIdentifier) {
        last.withLock { chains in
            guard let chain = chains[key] else { return }
            chains[key] = chain.count > 1 ? (chain.task, chain.count - 1) : nil
        }
    }
}
