import SagaCore
import SagaStore

extension Interpreter {
    /// The scheduler middleware uses for asynchronous work (the persistence middleware's
    /// I/O): the work runs off the scheduler, counts as in flight, and the actions it returns
    /// join the dispatch queue when it completes (in start order under virtual time).
    public var asyncWork: some AsyncWorkScheduler<Value> { AsyncWork(interpreter: self) }
}

/// ``Interpreter/asyncWork``.
private final class AsyncWork: AsyncWorkScheduler {
    weak var interpreter: Interpreter?
    init(interpreter: Interpreter) { self.interpreter = interpreter }

    func schedule(_ work: @escaping @Sendable () async -> [Value]) {
        interpreter?.hostCalls.startDispatching(work)
    }
}
