import SagaCore

/// An expression: evaluated synchronously, it never blocks.
///
/// Effects are never nested in an expression (see “Statements” in Sagas/README.md), which is
/// what lets a task's continuation be a plain stack of statement frames.
///
/// Every case is boxed (`indirect`), so an `Expr` is one word. Storing the leaves inline (a
/// literal, a variable) would save the parser and the checker an allocation per leaf, but
/// make the enum 37 bytes, and the interpreter, which copies expressions as it walks them,
/// would pay more than that saves. Running programs comes first.
package indirect enum Expr: Sendable {
    /// `null`, `true`, `42`, `2.5`, `"plain string"`, `100ms` (already milliseconds).
    case literal(Value, SourceLocation)
    /// A string with `\(expr)` interpolation.
    case interpolation([InterpolationPart], SourceLocation)
    /// `[a, b]`.
    case list([Expr], SourceLocation)
    /// `{name: v, "any key": v}`, in source order (a later duplicate key wins).
    case record([RecordField], SourceLocation)
    /// A variable, resolved by the checker to a slot of the enclosing function's frame.
    case variable(Variable)
    /// `state` (inside `select` and `reduce` only).
    case state(SourceLocation)
    /// `cancelled` (inside `finally` only).
    case cancelled(SourceLocation)
    /// `it` (inside a `take … where` condition only).
    case it(SourceLocation)
    /// `a.b`.
    case member(Expr, String, SourceLocation)
    /// `a[b]`.
    case index(Expr, Expr, SourceLocation)
    /// `-a`, `!a`.
    case unary(UnaryOperator, Expr, SourceLocation)
    /// `a + b`, `a && b`, `a ?? b`, …
    case binary(BinaryOperator, Expr, Expr, SourceLocation)
    /// `len(x)`: a built-in pure function. The parser gives the name; the checker checks it.
    case builtin(String, [Expr], SourceLocation)

    /// Where the expression starts.
    package var location: SourceLocation {
        switch self {
        case .literal(_, let l), .interpolation(_, let l), .list(_, let l), .record(_, let l),
            .state(let l), .cancelled(let l), .it(let l), .member(_, _, let l), .index(_, _, let l),
            .unary(_, _, let l), .binary(_, _, _, let l), .builtin(_, _, let l):
            return l
        case .variable(let v):
            return v.location
        }
    }
}

/// A part of an interpolated string.
package enum InterpolationPart: Sendable {
    case text(String)
    case expr(Expr)
}

/// A field of a record literal.
package struct RecordField: Sendable {
    package var key: String
    package var value: Expr
    package init(key: String, value: Expr) {
        self.key = key
        self.value = value
    }
}

/// A use of a variable.
///
/// `slot` is -1 until the checker resolves it.
package struct Variable: Sendable {
    package var name: String
    package var slot: Int
    package var location: SourceLocation
    /// The parser's number for `name` (see ``NameInterner``), or -1.
    ///
    /// The checker trusts it only while it still numbers `name`. (It fits in the padding after
    /// `location`, so a variable is no bigger for it.)
    var nameID: Int32 = -1
    package init(name: String, slot: Int = -1, location: SourceLocation) {
        self.name = name
        self.slot = slot
        self.location = location
    }
    init(name: String, nameID: Int32, location: SourceLocation) {
        self.name = name
        self.slot = -1
        self.location = location
        self.nameID = nameID
    }
}

/// A prefix operator.
package enum UnaryOperator: String, Sendable {
    case negate = "-"
    case not = "!"
}

/// An infix operator.
///
/// Precedence, lowest first: `??`, `||`, `&&`, `== !=`, `< <= > >=`, `+ -`, `* / %`; all
/// left-associative.
package enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!="
    case less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case and = "&&", or = "||", coalesce = "??"
}
