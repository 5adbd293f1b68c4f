import SagaLanguage

/// How a `call` of one of the program's functions runs, decided once per function when the
/// interpreter is made (see ``InlineCalls``).
enum CallShape {
    /// As an owned task of its own.
    case task
    /// Inline, in the caller's task: the function's body becomes the current block.
    case inline([Stmt])
    /// A body that is a single `return` of an expression (`func total(o) { return o.qty *
    /// o.price }`): evaluated at the call site with no frame, as redux-saga calls a plain
    /// (non-generator) function and has its value at once. Expressions have no effects, so
    /// this is not observable; if the expression fails, the call runs inline instead, so
    /// that the error's trace names the function as it always does: `body` is for that.
    case value(Expr?, body: [Stmt])

    /// The shape of calls of `function`.
    init(_ function: FunctionDecl) {
        guard InlineCalls.canInline(function) else {
            self = .task
            return
        }
        let statements = function.body.statements
        if statements.count == 1, case .return(let e, _) = statements[0] {
            self = .value(e, body: statements)
        } else {
            self = .inline(statements)
        }
    }
}
