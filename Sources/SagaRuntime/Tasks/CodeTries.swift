/// The `try`s and `transaction`s a task's code stands in, and the ways out of them: what
/// few tasks need, kept with their extras (see ``SagaTask/tries``), and in a call frame for
/// the code of a caller.
final class CodeTries {
    /// The handlers of the `try`s the code stands in, innermost last (see
    /// ``Code/Instruction/tryBegin(_:)``).
    @exclusivity(unchecked) var handlers: [Code.Handler] = []
    /// The ways out of a `try` whose `finally` block runs (see ``Code/Handler/finally``),
    /// innermost last, each with the number of handlers left when it began: it goes on at the
    /// block's ``Code/Instruction/finallyEnd``.
    @exclusivity(unchecked) var pending: [(depth: Int, completion: Completion)] = []
    /// The compensations registered in each `transaction` the code stands in, innermost last
    /// (see ``Code/Handler/compensates``).
    @exclusivity(unchecked) var transactions: [[Compensation]] = []

    /// Leaves every `try`, keeping the room of the arrays for the next code.
    func removeAll() {
        if !handlers.isEmpty { handlers.removeAll(keepingCapacity: true) }
        if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
        if !transactions.isEmpty { transactions.removeAll(keepingCapacity: true) }
    }

    /// What the `try`s and `transaction`s of running code do with a way out of it (see
    /// ``handle(_:in:compensationRuns:)``).
    enum Handling {
        /// The code goes on at a `catch` or `finally` block.
        case goesOn
        /// These compensations of a transaction run first; then the way out goes on in the
        /// code.
        case compensates([Compensation])
        /// None handles it: it leaves the code.
        case leaves
    }

    /// A `try` or `transaction` begins (see ``Code/Instruction/tryBegin(_:)``).
    func beginTry(_ handler: Code.Handler) {
        handlers.append(handler)
        if handler.compensates { transactions.append([]) }
    }

    /// The innermost `try` or `transaction` ends (see ``Code/Instruction/tryEnd``): a
    /// transaction's compensations go to the enclosing one, in the code or in `task`'s frames.
    func endTry(_ task: SagaTask) {
        guard handlers.removeLast().compensates else { return }
        handOn(transactions.removeLast(), task)
    }

    /// Sends a way out of `task`'s code to the innermost `try` or `transaction` it stands in
    /// that handles it, where the task's code goes on.
    ///
    /// A way out is an error, a `return`, cancellation, a failed child or END: an error goes to
    /// a `catch` block (its value into the `catch` variable, the failure kept as the one `task`
    /// caught last), any of them to a `finally` block (see ``Code/Handler``). A transaction that an error, cancellation or a
    /// failed child leaves runs its compensations, each `compensationRuns` times (failure
    /// injection shows they are idempotent so); otherwise they go to the enclosing transaction.
    func handle(_ completion: Completion, in task: SagaTask, compensationRuns: Int) -> Handling {
        while let handler = handlers.popLast() {
            let depth = handlers.count
            if handler.compensates {
                let compensations = transactions.removeLast()
                switch completion {
                case .throwError, .abort, .cancel:
                    guard !compensations.isEmpty else { continue }
                    leaveFinallyBlocks(above: depth)
                    let runs = max(1, compensationRuns)
                    return .compensates(compensations.flatMap { Array(repeating: $0, count: runs) })
                default:
                    handOn(compensations, task)
                    continue
                }
            }
            if handler.target >= 0, case .throwError(let failure) = completion {
                leaveFinallyBlocks(above: depth)
                if case .slot(let slot) = handler.place { task.env[Int(slot)] = failure.error.value }
                task.lastCaught = failure
                task.pc = Int(handler.target)
            } else if handler.finally >= 0 {
                leaveFinallyBlocks(above: depth)
                pending.append((depth, completion))
                task.pc = Int(handler.finally)
            } else {
                continue
            }
            if let temporaries = task.temporaries {
                for t in Int(handler.clearsFrom)..<task.code.temporaryCount { temporaries[t] = .null }
            }
            return .goesOn
        }
        if !pending.isEmpty { pending.removeAll() }
        return .leaves
    }

    /// The `finally` blocks that were running inside the `try` whose handler was at `depth` are
    /// left: their ways out are dropped.
    private func leaveFinallyBlocks(above depth: Int) {
        while let last = pending.last, last.depth > depth { pending.removeLast() }
    }

    /// Hands the compensations of a transaction that ended to the enclosing one: in the code,
    /// or in the code of `task`'s callers.
    private func handOn(_ compensations: [Compensation], _ task: SagaTask) {
        guard !compensations.isEmpty else { return }
        if transactions.isEmpty {
            _ = task.addCompensations(compensations)
        } else {
            transactions[transactions.count - 1] += compensations
        }
    }
}
