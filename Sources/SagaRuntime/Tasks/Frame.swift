import SagaCore
import SagaLanguage

/// One level of a task's continuation. Expressions never block, so a continuation is just
/// where each enclosing statement is up to. The innermost running block is not a frame: see
/// ``SagaTask/code``.
enum Frame {
    /// The rest of an enclosing block; the next statement to run is at the index.
    case block([Stmt], Int)
    /// A `while` loop, re-testing its condition each time it is on top.
    case whileLoop(Expr, Block)
    /// A `loop`.
    case loop(Block)
    /// A `for`: the items and the index of the next one.
    case forLoop(slot: Int, items: [Value], index: Int, body: Block)
    /// The body of a `try` is running.
    case tryBody(catch: CatchClause?, finally: Block?)
    /// The `catch` block of a `try` is running; its finally still runs afterwards.
    case catchBody(finally: Block?)
    /// A `finally` block is running; afterwards the pending completion goes on.
    case finallyBody(pending: Completion)
    /// A `transaction` body with the compensations registered so far.
    case transaction([Compensation])
    /// Compensations are running (last registered first); afterwards the pending completion goes on.
    case compensating(remaining: [Compensation], pending: Completion)
}

/// A registered `compensate` block with the variables it captured.
struct Compensation {
    var body: Block
    var env: [Value]
    var location: SourceLocation
}

/// How a block was left.
enum Completion {
    case normal
    case breakLoop
    case continueLoop
    case returnValue(Value)
    /// An error that `catch` may catch.
    case throwError(Failure)
    /// An attached child failed: `catch` does not catch this; finally blocks run.
    case abort(Failure)
    /// Cancellation: finally blocks run with `cancelled` true.
    case cancel
    /// END: a blocked `take` ends as if by `return`.
    case end
}
