import SagaCore

/// The loop a `retry` stands for, built by the checker once the retried effect is checked:
/// its owned task runs ``body``.
///
///     wait = D                      // with `delay D` or `backoff D`
///     loop {
///       try { let result = EFFECT; return result }
///       catch error {
///         attempt = attempt + 1
///         if attempt >= count { throw error }
///         delay wait                // with `delay D` or `backoff D`
///         wait = wait * 2           // with `backoff D`
///       }
///     }
///
/// Its five hidden variables have slots of the enclosing declaration's numbering, from
/// ``firstSlot``: `attempt` (0 when the task starts), `wait`, `result`, `error`, and `count`
/// (the retry's count, evaluated and checked where the `retry` runs).
package struct RetryLoop: Sendable {
    /// How many hidden variables the loop has.
    package static let hiddenCount = 5

    /// The slot of `attempt`, the first of the hidden variables; -1 until the checker sets it.
    package var firstSlot: Int
    /// The loop; empty until the checker builds it.
    package var body: Block

    /// The slot of `count`.
    package var countSlot: Int { firstSlot + 4 }

    /// A loop not built yet, whose hidden variables start at `firstSlot` (-1 if unknown).
    package init(firstSlot: Int = -1, at location: SourceLocation) {
        self.firstSlot = firstSlot
        self.body = Block(statements: [], location: location)
    }

    /// The loop retrying `effect`, with `wait` between attempts, hidden variables from
    /// `firstSlot`.
    package init(retrying effect: Effect, wait: RetryWait?, firstSlot: Int, at loc: SourceLocation) {
        self.firstSlot = firstSlot
        func hidden(_ name: String, _ offset: Int) -> Variable {
            Variable(name: name, slot: firstSlot + offset, location: loc)
        }
        let (attempt, pause, result, error, count) = (
            hidden("attempt", 0), hidden("wait", 1), hidden("result", 2), hidden("error", 3), hidden("count", 4)
        )
        func block(_ statements: [Stmt]) -> Block { Block(statements: statements, location: loc) }
        var statements: [Stmt] = []
        switch wait {
        case .delay(let d)?, .backoff(let d)?:
            statements.append(.assign(LValue(root: .variable(pause), path: []), .expr(d), loc))
        case nil:
            break
        }
        var onError: [Stmt] = [
            .assign(
                LValue(root: .variable(attempt), path: []),
                .expr(.binary(.add, .variable(attempt), .literal(.int(1), loc), loc)), loc),
            .if(
                [
                    ConditionalBlock(
                        condition: .binary(.greaterEqual, .variable(attempt), .variable(count), loc),
                        body: block([.throw(.variable(error), loc)]))
                ], else: nil, loc),
        ]
        if wait != nil {
            onError.append(.effect(.delay(.variable(pause), value: nil, loc), loc))
        }
        if case .backoff? = wait {
            onError.append(
                .assign(
                    LValue(root: .variable(pause), path: []),
                    .expr(.binary(.multiply, .variable(pause), .literal(.int(2), loc), loc)), loc))
        }
        let attemptBody = block([
            .declare(result, isMutable: false, .effect(effect), loc), .return(.variable(result), loc),
        ])
        statements.append(
            .loop(
                block([
                    .try(attemptBody, catch: CatchClause(binding: error, body: block(onError)), finally: nil, loc)
                ]), loc))
        self.body = block(statements)
    }
}
