/// Where in a declaration the checker is: what the surrounding code allows.
///
/// The checker saves and restores this around every construct that changes it, so each
/// flag describes exactly the enclosing constructs of the node being checked.
struct CheckContext {
    /// What kind of block started the current task body; names the culprit in messages
    /// about assignments across a task boundary.
    enum Boundary {
        case fork, watcher, compensate
    }

    /// Inside a reducer: effects are errors, and `state` may be read and assigned.
    var inReducer = false
    /// An effect in a reducer was already reported; effects nested in it are not reported again.
    var reducerEffectReported = false
    /// Inside the expression of a `select`.
    var stateReadable = false
    /// Inside the condition of a `take … where`.
    var itAllowed = false
    /// Inside a loop of the current task body.
    var inLoop = false
    /// A loop encloses the current task body's start, but `break`/`continue` cannot reach it.
    var loopBehindBoundary = false
    /// Inside a `transaction` of the current task body.
    var inTransaction = false
    /// A `transaction` encloses the current task body's start, but its `compensate` cannot be
    /// registered from here.
    var transactionBehindBoundary = false
    /// How many task boundaries enclose the current node.
    var taskDepth = 0
    /// The innermost task boundary, if any.
    var boundary: Boundary?
}
