extension TaskMiddleware {
    /// Starts `action`'s work in a Swift task, unless its handle is already cancelled or its
    /// policy drops it.
    func start(_ action: TaskAction<State, Action>, link: StoreLink<State, Action>) {
        let registry = self.registry
        let serial = registry.makeSerial()
        var handle: TaskHandle?
        if case .owned(let owner) = action.ownership { handle = owner }
        // The record must not keep its handle alive: releasing the handle is what cancels.
        let record = TaskRecord(id: action.id, serial: serial) { [weak handle] in
            handle?.release(serial: serial)
        }
        if let handle {
            let adopted = handle.adopt(serial: serial) { [weak registry] in registry?.cancel(record) }
            if !adopted { return }
        }
        guard case .start(let predecessors) = registry.admit(record, policy: action.policy) else {
            _ = record.end(as: .cancelled)
            return
        }
        let thread = link.thread
        let context = TaskContext(id: action.id, clock: clock, record: record, link: link, thread: thread)
        // Captured apart: the task must not hold `action`, whose ownership holds the handle.
        let work = action.work
        let id = action.id
        let task = Task(executorPreference: thread.taskExecutor) {
            for predecessor in predecessors { await predecessor.value }
            var failure: (any Error)?
            if !context.isCancelled {
                do { try await work(context) } catch { failure = error }
            }
            let finishedRunning = registry.finish(record)
            if let failure, finishedRunning, !(failure is CancellationError) {
                thread.post { link.report(id, failure) }
            }
        }
        record.attach(task)
    }
}
