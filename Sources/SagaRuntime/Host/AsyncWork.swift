import SagaCore
import SagaStore

/// ``Interpreter/asyncWork``: the work goes into the interpreter's table of work in flight.
final class AsyncWork: AsyncWorkScheduler {
    let table: HostCallTable
    init(table: HostCallTable) { self.table = table }

    func schedule(_ work: @escaping @Sendable () async -> [Value]) {
        table.startDispatching(work)
    }

    func schedule(reporting work: (_ finish: @escaping @Sendable ([Value]) -> Void) -> Void) {
        table.startDispatching(reporting: work)
    }
}
