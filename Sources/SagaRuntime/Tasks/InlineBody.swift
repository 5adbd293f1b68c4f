import SagaLanguage

/// An `every` or `latest` body that runs in its watcher's turn, with no task of its own (see
/// ``Interpreter/runBodyInline(_:_:_:)``): one whose statements each complete in the turn they
/// start in and show nothing of the task that runs them.
///
/// Those are `let`/`var` with an expression, a `select` or a `put`; an assignment of an
/// expression to a variable; `select`; `put` of a literal type (`put "done" {…}`); `log`; and
/// `if` whose arms hold only those. A `put` can still make its task wait (the action woke
/// another task, or another action is queued first): the runner then gives the body a task
/// at that point, as it does when a statement fails. A `take`, a `call`, a `fork`, a loop or a
/// `try` would always need one, so a body with any of them runs as a task from the start.
struct InlineBody {
    let statements: [Stmt]
    /// The most steps a task running the body would count without an effect: each statement,
    /// each block left for the one around it, and the step that finds the body's end (see the
    /// step loop of ``Interpreter``).
    ///
    /// A body that may reach `--max-steps` runs as a task, which fails there.
    let maxSteps: Int

    /// The body as it runs inline, or `nil` if it cannot.
    init?(_ body: Block) {
        guard let steps = Self.steps(of: body.statements) else { return nil }
        statements = body.statements
        maxSteps = steps + 1
    }

    /// The steps of a block's statements, counting every arm of each `if` and the step that
    /// leaves each (more than any one run takes); `nil` if a statement cannot run inline.
    private static func steps(of statements: [Stmt]) -> Int? {
        var steps = 0
        for statement in statements {
            switch statement {
            case .declare(_, _, .expr, _), .log:
                steps += 1
            case .declare(_, _, .effect(let effect), _), .effect(let effect, _):
                guard runsInline(effect) else { return nil }
                steps += 1
            case .assign(let target, .expr, _):
                guard target.path.isEmpty, case .variable = target.root else { return nil }
                steps += 1
            case .if(let arms, let elseBlock, _):
                steps += 1
                for block in arms.map(\.body) + (elseBlock.map { [$0] } ?? []) {
                    guard let inner = Self.steps(of: block.statements) else { return nil }
                    steps += inner + 1
                }
            default:
                return nil
            }
        }
        return steps
    }

    private static func runsInline(_ effect: Effect) -> Bool {
        switch effect {
        case .select: return true
        case .put(.literal(.string, _), _, _): return true
        default: return false
        }
    }
}
