import Synchronization

/// The tasks in flight, by id, in the order they started.
///
/// Shared by the middleware (on the store's thread) and the tasks themselves (which remove
/// themselves from any thread).
final class TaskRegistry: Sendable {
    /// What ``admit(_:policy:)`` decided.
    enum Admission {
        /// Start, once these tasks have ended.
        case start(after: [Task<Void, Never>])
        /// Do not run the work.
        case drop
    }

    private struct Book {
        var byID: [TaskID: [TaskRecord]] = [:]
        var nextSerial: UInt64 = 0
    }

    private let book = Mutex(Book())

    func makeSerial() -> UInt64 {
        book.withLock { b in
            defer { b.nextSerial += 1 }
            return b.nextSerial
        }
    }

    /// Adds `record` under its id, applying `policy` to the tasks already there.
    func admit(_ record: TaskRecord, policy: TaskPolicy) -> Admission {
        var replaced: [TaskRecord] = []
        let admission = book.withLock { b -> Admission in
            // Checked under the lock: a handle cancelled on another thread cancels through it.
            if record.isCancelled { return .drop }
            let group = b.byID[record.id] ?? []
            var predecessors: [Task<Void, Never>] = []
            switch policy {
            case .parallel:
                break
            case .cancelInFlight:
                replaced = group.filter { $0.end(as: .cancelled) }
                b.byID[record.id] = nil
            case .queue:
                predecessors = group.compactMap(\.task)
            case .dropIfRunning:
                if !group.isEmpty { return .drop }
            }
            b.byID[record.id, default: []].append(record)
            return .start(after: predecessors)
        }
        for record in replaced { record.task?.cancel() }
        return admission
    }

    /// Cancels one task, if still in flight.
    func cancel(_ record: TaskRecord) {
        let wasRunning = book.withLock { b -> Bool in
            remove(record, from: &b)
            return record.end(as: .cancelled)
        }
        if wasRunning { record.task?.cancel() }
    }

    /// Cancels every task in flight with `id`.
    func cancel(id: TaskID) {
        let records = book.withLock { b in
            (b.byID.removeValue(forKey: id) ?? []).filter { $0.end(as: .cancelled) }
        }
        for record in records { record.task?.cancel() }
    }

    /// Cancels every task in flight.
    func cancelAll() {
        let records = book.withLock { b -> [TaskRecord] in
            defer { b.byID = [:] }
            return b.byID.values.flatMap { $0 }.sorted { $0.serial < $1.serial }.filter { $0.end(as: .cancelled) }
        }
        for record in records { record.task?.cancel() }
    }

    /// Forgets a task whose work has ended.
    ///
    /// - Returns: whether it was still running (not cancelled before it ended).
    func finish(_ record: TaskRecord) -> Bool {
        book.withLock { b in
            remove(record, from: &b)
            return record.end(as: .finished)
        }
    }

    /// The ids with a task in flight.
    var runningIDs: Set<TaskID> {
        book.withLock { Set($0.byID.keys) }
    }

    /// How many tasks are in flight.
    var runningCount: Int {
        book.withLock { $0.byID.values.reduce(0) { $0 + $1.count } }
    }

    private func remove(_ record: TaskRecord, from book: inout Book) {
        guard var group = book.byID[record.id] else { return }
        group.removeAll { $0 === record }
        book.byID[record.id] = group.isEmpty ? nil : group
    }
}
