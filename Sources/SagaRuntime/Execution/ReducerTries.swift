import SagaCore

/// The `try`s of a reducer's code as it runs (see ``VM/run(_:_:_:action:_:_:pc:steps:)``):
/// the handlers it stands in, innermost last, and the errors whose `finally` blocks run, each
/// with the number of handlers left when its block began.
///
/// A saga's code keeps the same in its task (``CodeTries``), where the interpreter handles them.
/// The runner keeps one (reducers do not nest), so that a run without a `try` has nothing to
/// make or drop.
struct ReducerTries {
    var handlers: [Code.Handler] = []
    var pending: [(depth: Int, error: SagaError)] = []

    /// The handler `error` goes to: the innermost with a `catch` or a `finally` block, whose
    /// `finally` block keeps the error until its ``Code/Instruction/finallyEnd``; `nil` if none.
    ///
    /// The `finally` blocks running inside that `try` are left, their errors dropped.
    mutating func handle(_ error: SagaError) -> Code.Handler? {
        while let handler = handlers.popLast() {
            guard handler.target >= 0 || handler.finally >= 0 else { continue }
            let depth = handlers.count
            while let last = pending.last, last.depth > depth { pending.removeLast() }
            if handler.target < 0 { pending.append((depth, error)) }
            return handler
        }
        return nil
    }
}
