import SagaLanguage

/// Which `every` and `latest` bodies run in their watcher's turn, with no task of their own (see
/// ``Interpreter/runBodyInline(_:_:_:)``): a body whose statements, all at its top level,
/// each complete in the turn they start in and show nothing of the task that runs them.
///
/// Those are `let`/`var` with an expression, a `select` or a `put`; an assignment of an
/// expression to a variable; `select`; `put` of a literal type (`put "done" {…}`); `log`.
/// A `put` can still make its task wait (the action woke another task, or another action is
/// queued first): the runner then gives the body a task at that point, as it does when a
/// statement fails. A `take`, a `call`, a `fork` or a nested block would always need one,
/// so a body with any of them runs as a task from the start.
enum InlineBody {
    /// The statements of `body` if it can run inline; `nil` otherwise.
    static func statements(of body: Block) -> [Stmt]? {
        for statement in body.statements where !runsInline(statement) { return nil }
        return body.statements
    }

    private static func runsInline(_ statement: Stmt) -> Bool {
        switch statement {
        case .declare(_, _, .expr, _), .log:
            return true
        case .declare(_, _, .effect(let effect), _), .effect(let effect, _):
            return runsInline(effect)
        case .assign(let target, .expr, _):
            guard target.path.isEmpty, case .variable = target.root else { return false }
            return true
        default:
            return false
        }
    }

    private static func runsInline(_ effect: Effect) -> Bool {
        switch effect {
        case .select: return true
        case .put(.literal(.string, _), _, _): return true
        default: return false
        }
    }
}
