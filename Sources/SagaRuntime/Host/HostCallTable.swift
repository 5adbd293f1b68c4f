import Foundation
import SagaCore
import SagaStore

/// Host calls in flight. Each runs as a Swift `Task`, off the scheduler and in parallel
/// with the others; its completion is posted back and delivered by the scheduler.
final class HostCallTable: @unchecked Sendable {
    /// A finished call.
    struct Completion {
        var id: Int
        var task: SagaTask
        var token: Int
        var result: Result<Value, SagaError>
    }

    /// Whether completions are delivered in call order (virtual time).
    private let inCallOrder: Bool

    init(inCallOrder: Bool) {
        self.inCallOrder = inCallOrder
    }

    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var finished: [Int: Result<Value, SagaError>] = [:]

    // Scheduler-only state.
    private var nextID = 1
    private var waiting: [Int: (task: SagaTask, token: Int)] = [:]
    private var order = RingBuffer<Int>()
    private var running: [Int: Task<Void, Never>] = [:]

    /// Whether any call is in flight.
    var hasInFlight: Bool { !waiting.isEmpty }

    /// Starts a call for `task`; returns its id.
    func start(_ function: @escaping HostFunctions.Function, _ args: [Value], task: SagaTask, token: Int) -> Int {
        let id = nextID
        nextID += 1
        waiting[id] = (task, token)
        if inCallOrder { order.append(id) }
        running[id] = Task.detached { [self] in
            let result: Result<Value, SagaError>
            do {
                result = .success(try await function(args))
            } catch let error as SagaError {
                result = .failure(error)
            } catch {
                result = .failure(SagaError(kind: "HostError", message: String(describing: error)))
            }
            self.post(id, result)
        }
        return id
    }

    private func post(_ id: Int, _ result: Result<Value, SagaError>) {
        condition.lock()
        finished[id] = result
        condition.broadcast()
        condition.unlock()
    }

    /// Forgets a call whose task was cancelled, and cancels its Swift task.
    func cancel(_ id: Int) {
        waiting[id] = nil
        running[id]?.cancel()
        running[id] = nil
    }

    /// Virtual time: blocks until the oldest call in flight has finished, and returns it
    /// (completions are delivered in the order the calls were made).
    func waitForOldest() -> Completion? {
        while let id = order.first, waiting[id] == nil {
            _ = order.popFirst()
            take(id)
        }
        guard let id = order.popFirst() else { return nil }
        condition.lock()
        while finished[id] == nil { condition.wait() }
        let result = finished.removeValue(forKey: id)
        condition.unlock()
        return finish(id, result)
    }

    /// Real time: the calls that have finished, waiting up to `deadline` for one if none has.
    func waitForAny(until deadline: Date?) -> [Completion] {
        condition.lock()
        if finished.isEmpty {
            if let deadline { _ = condition.wait(until: deadline) } else { condition.wait() }
        }
        let done = finished
        finished.removeAll()
        condition.unlock()
        return done.keys.sorted().compactMap { finish($0, done[$0]) }
    }

    /// Wakes a real-time wait early (new input arrived).
    func interrupt() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private func take(_ id: Int) {
        condition.lock()
        finished[id] = nil
        condition.unlock()
    }

    private func finish(_ id: Int, _ result: Result<Value, SagaError>?) -> Completion? {
        running[id] = nil
        guard let result, let w = waiting.removeValue(forKey: id) else { return nil }
        return Completion(id: id, task: w.task, token: w.token, result: result)
    }
}
