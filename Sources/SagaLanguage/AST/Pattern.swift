import SagaCore

/// What a `take`, a watcher, a reducer or an `actionChannel` matches: `*` (every action), or
/// an expression that evaluates to a type string (exact, or a glob with `*`), or a list of
/// patterns.
///
/// `take CH` also parses as a pattern: if its expression evaluates to a channel handle, the
/// take reads that channel.
package enum Pattern: Sendable {
    /// The bare `*`.
    case any(SourceLocation)
    /// A string, list, or any expression evaluating to one (or to a channel, for `take`).
    case expr(Expr)

    /// Where the pattern starts.
    package var location: SourceLocation {
        switch self {
        case .any(let l): return l
        case .expr(let e): return e.location
        }
    }
}
