import SagaLanguage

/// How a `call` of one of the program's functions runs, decided once per function when the
/// interpreter is made (see ``InlineCalls``).
///
/// A class: a call reads its function's shape by reference, one retain, where copying an enum
/// with the body and the expression as payloads would retain each.
final class CallShape {
    enum Kind {
        /// As an owned task of its own.
        case task
        /// Inline, in the caller's task, which runs the function's code above the caller's.
        case inline
        /// A body that is a single `return` of an expression (`func total(o) { return o.qty *
        /// o.price }`): the caller's code computes it at the call with no frame (see
        /// ``Code/ValueCall``), as redux-saga calls a plain (non-generator) function and has its
        /// value at once. Expressions have no effects, so this is not observable; where the code
        /// cannot make the call, or the expression fails, the call runs inline instead, so that
        /// the error's trace names the function as it always does.
        case value
    }

    let kind: Kind
    /// The returned expression of a `value` function (a bare `return` returns a `null`
    /// literal).
    ///
    /// Not optional: reading an optional expression out of the shape would take an outlined
    /// copy and destroy that switches over its cases.
    let value: Expr
    /// ``value`` for a function whose body is that one `return`, which a compiled loop
    /// computes in its code (see ``Code/ValueCall``); `nil` for any other.
    var returnedValue: Expr? { kind == .value ? value : nil }

    /// The shape of calls of `function`.
    init(_ function: FunctionDecl) {
        let statements = function.body.statements
        let none = Expr.literal(.null, function.body.location)
        guard InlineCalls.canInline(function) else {
            kind = .task
            value = none
            return
        }
        if statements.count == 1, case .return(let e, let loc) = statements[0] {
            kind = .value
            value = e ?? .literal(.null, loc)
        } else {
            kind = .inline
            value = none
        }
    }
}
