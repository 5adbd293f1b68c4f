import SagaCore
import SagaStore

extension Interpreter {
    /// The scheduler middleware uses for asynchronous work (the persistence middleware's
    /// I/O): the work runs off the scheduler, counts as in flight, and the actions it returns
    /// join the dispatch queue when it completes (in start order under virtual time).
    public var asyncWork: some AsyncWorkScheduler<Value> { AsyncWork(table: hostCalls) }
}

/// ``Interpreter/asyncWork``: the work goes into the interpreter's table of work in flight.
private final class AsyncWork: AsyncWorkScheduler {
    let table: HostCallTable
    init(table: HostCallTable) { self.table = table }

    func schedule(_ work: @escaping @Sendable () async -> [Value]) {
        table.startDispatching(work)
    }

    func schedule(reporting work: (_ finish: @escaping @Sendable ([Value]) -> Void) -> Void) {
        table.startDispatching(reporting: work)
    }
}
