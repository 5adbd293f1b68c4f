import SagaCore
import SagaStore
import Synchronization

/// Work in flight off the scheduler: host calls, and middleware work (persistence I/O) whose
/// completion dispatches actions.
///
/// Each runs as a Swift `Task`, or reports its own end (a file store's writer thread), in
/// parallel with the others; its completion is posted back and delivered by the scheduler,
/// which awaits it (it never blocks a thread, so it can share Swift's cooperative pool with
/// the work it waits for).
final class HostCallTable: Sendable {
    /// Who waits for a piece of work.
    enum Waiter {
        /// A task blocked on a host call, with its token.
        case task(SagaTask, Int)
        /// Nobody: the work's result is a list of actions to dispatch.
        case dispatch
    }

    /// A finished piece of work.
    struct Completion {
        var id: Int
        var waiter: Waiter
        var result: Result<Value, SagaError>
    }

    /// Finished results, guarded by the inbox.
    private let finished = Mutex<[Int: Result<Value, SagaError>]>([:])
    /// Real time: the actions of finished work that reported its own end, by id, in the order
    /// it finished.
    ///
    /// Such work is never cancelled and nobody waits for it by id, so it needs none of the
    /// tables above: a count in ``Local/reportingInFlight`` and this list (the tables would be
    /// a large part of the scheduler's work for a save).
    private let reported = Mutex<[(id: Int, actions: [Value])]>([])
    /// Wakes the scheduler when a call finishes or input arrives.
    let inbox = Signal()
    /// Whether completions are delivered in call order (virtual time).
    private let inCallOrder: Bool
    /// Scheduler-only state.
    private let local: Mutex<Local>
    /// How many calls ``Local/waiting`` holds plus ``Local/reportingInFlight``, changed with
    /// them under `local`: read without the lock, once per turn of the run loop, so that the
    /// lock's atomic operations are not paid at every action.
    private let inFlight = Atomic<Int>(0)

    private struct Local: ~Copyable {
        var nextID = 1
        var waiting: [Int: Waiter] = [:]
        var order = RingBuffer<Int>()
        var running: [Int: Task<Void, Never>] = [:]
        /// Real time: work that reports its own end, started and not yet delivered.
        var reportingInFlight = 0
    }

    init(inCallOrder: Bool) {
        self.inCallOrder = inCallOrder
        self.local = Mutex(Local())
    }

    /// Whether any call is in flight.
    var hasInFlight: Bool {
        // Every change to the count is made under `local`, with the tables it counts; but not
        // always by the scheduler (middleware work can start on an app's thread that
        // dispatches into a shared store), so it is compared with them under the lock.
        assert(
            local.withLock { $0.waiting.count + $0.reportingInFlight == inFlight.load(ordering: .relaxed) },
            "the in-flight count drifted")
        return inFlight.load(ordering: .acquiring) > 0
    }

    /// How many finished results wait to be delivered (for tests).
    var undeliveredCount: Int { finished.withLock { $0.count } + reported.withLock { $0.count } }

    /// Starts a call for `task`; returns its id.
    func start(_ function: @escaping HostFunctions.Function, _ args: [Value], task: SagaTask, token: Int) -> Int {
        start(waiter: .task(task, token)) {
            do {
                return .success(try await function(args))
            } catch let error as SagaError {
                return .failure(error)
            } catch {
                return .failure(SagaError(kind: "HostError", message: String(describing: error)))
            }
        }
    }

    /// Starts middleware work whose result is a list of actions (delivered as `.list`).
    func startDispatching(_ work: @escaping @Sendable () async -> [Value]) {
        _ = start(waiter: .dispatch) { .success(.list(await work())) }
    }

    /// Starts middleware work that reports its own end (``AsyncWorkScheduler/schedule(reporting:)``):
    /// no `Task`; `finish` files the actions and wakes the scheduler, from whichever thread
    /// the work ends on.
    func startDispatching(reporting work: (_ finish: @escaping @Sendable ([Value]) -> Void) -> Void) {
        // Virtual time delivers in call order, through the tables.
        if inCallOrder {
            let id = register(.dispatch)
            return work { [self] actions in complete(id, .success(.list(actions))) }
        }
        let id = local.withLock { l -> Int in
            let id = l.nextID
            l.nextID += 1
            l.reportingInFlight += 1
            inFlight.add(1, ordering: .releasing)
            return id
        }
        work { [self] actions in
            reported.withLock { $0.append((id, actions)) }
            inbox.signal()
        }
    }

    /// Files a finished result under its id and wakes the scheduler.
    private func complete(_ id: Int, _ result: Result<Value, SagaError>) {
        // Kept only while someone waits for it: the result of a cancelled call would
        // otherwise stay in `finished` for ever (virtual time skips its id). The check and
        // the store are one step under `local`, which `cancel` takes too.
        local.withLock { l in
            if l.waiting[id] != nil { finished.withLock { $0[id] = result } }
        }
        inbox.signal()
    }

    /// Gives a new piece of work its id, and records who waits for it.
    private func register(_ waiter: Waiter) -> Int {
        let ordered = inCallOrder
        return local.withLock { l -> Int in
            let id = l.nextID
            l.nextID += 1
            l.waiting[id] = waiter
            inFlight.add(1, ordering: .releasing)
            if ordered { l.order.append(id) }
            return id
        }
    }

    private func start(waiter: Waiter, _ work: @escaping @Sendable () async -> Result<Value, SagaError>) -> Int {
        let id = register(waiter)
        let handle = Task.detached { [self] in
            complete(id, await work())
        }
        local.withLock { l in
            if l.waiting[id] != nil { l.running[id] = handle }
        }
        return id
    }

    /// Forgets a call whose task was cancelled, and cancels its Swift task.
    func cancel(_ id: Int) {
        let handle = local.withLock { l -> Task<Void, Never>? in
            if l.waiting.removeValue(forKey: id) != nil { inFlight.subtract(1, ordering: .releasing) }
            finished.withLock { _ = $0.removeValue(forKey: id) }
            return l.running.removeValue(forKey: id)
        }
        handle?.cancel()
    }

    /// Forgets every host call a task waits for, and cancels its Swift task.
    ///
    /// The run is over. Middleware work goes on, and is still in flight.
    func cancelCalls() {
        let ids = local.withLock { l in
            l.waiting.compactMap { id, waiter -> Int? in
                if case .task = waiter { return id }
                return nil
            }
        }
        for id in ids { cancel(id) }
    }

    /// Virtual time: waits until the oldest call in flight has finished, and returns it
    /// (completions are delivered in the order the calls were made); `nil` when none is in
    /// flight, or once `stop` is asked for (which wakes the wait: it signals the inbox).
    func nextInCallOrder(
        unless stop: StopRequest? = nil, isolation: isolated (any Actor)? = #isolation
    ) async -> Completion? {
        while stop?.isAsked != true {
            let next = local.withLock { l -> Int? in
                while let id = l.order.first, l.waiting[id] == nil { _ = l.order.popFirst() }
                return l.order.first
            }
            guard let id = next else { return nil }
            if let result = finished.withLock({ $0.removeValue(forKey: id) }) {
                local.withLock { _ = $0.order.popFirst() }
                return finish(id, result)
            }
            await inbox.wait()
        }
        return nil
    }

    /// Real time: the calls that have finished (possibly none: the wait also ends when
    /// input arrives or a timer is due).
    func finishedCalls() -> [Completion] {
        let done = finished.withLock { f -> [Int: Result<Value, SagaError>] in
            if f.isEmpty { return [:] }
            defer { f.removeAll() }
            return f
        }
        // Not sorted when empty, as it is for a save's report: even sorting nothing has a cost,
        // paid at every save.
        var completions: [Completion] =
            done.isEmpty ? [] : done.keys.sorted().compactMap { id in done[id].flatMap { finish(id, $0) } }
        let finishedReports = reported.withLock { r -> [(id: Int, actions: [Value])] in
            if r.isEmpty { return [] }
            defer { r.removeAll(keepingCapacity: true) }
            return r
        }
        guard !finishedReports.isEmpty else { return completions }
        local.withLock { l in
            l.reportingInFlight -= finishedReports.count
            inFlight.subtract(finishedReports.count, ordering: .releasing)
        }
        completions.reserveCapacity(completions.count + finishedReports.count)
        for report in finishedReports {
            completions.append(Completion(id: report.id, waiter: .dispatch, result: .success(.list(report.actions))))
        }
        // In the order the work was started, as the finished calls above are: ids grow with
        // each start.
        var inOrder = done.isEmpty
        if inOrder {
            for i in completions.indices.dropFirst() where completions[i - 1].id > completions[i].id {
                inOrder = false
                break
            }
        }
        if !inOrder { completions.sort { $0.id < $1.id } }
        return completions
    }

    private func finish(_ id: Int, _ result: Result<Value, SagaError>) -> Completion? {
        local.withLock { l -> Completion? in
            l.running[id] = nil
            guard let w = l.waiting.removeValue(forKey: id) else { return nil }
            inFlight.subtract(1, ordering: .releasing)
            return Completion(id: id, waiter: w, result: result)
        }
    }
}
