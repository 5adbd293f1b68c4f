import SagaLanguage

/// Which functions a `call` may run inline, in the caller's task, instead of as an owned task
/// of their own: a call then costs a frame instead of a task, a wake-up and a finish.
///
/// Inlining is an optimisation and must not be observable, so it is kept to functions whose
/// behaviour cannot tell the difference: no `try`, `transaction` or `compensate` (cleanup
/// that runs while unwinding sees `cancelled`, which differs between a task and a frame), no
/// `cancelled` itself, no task effects (`fork`, `spawn`, watchers, `race`, `all`, `retry`,
/// `join`, `cancel`), which would make children or handles of the caller's task. Effects on
/// the store, channels, the clock and host functions, and further calls, are all fine.
enum InlineCalls {
    /// Whether calls of `function` may run inline.
    static func canInline(_ function: FunctionDecl) -> Bool {
        allowed(function.body.statements)
    }

    private static func allowed(_ stmts: [Stmt]) -> Bool {
        stmts.allSatisfy(allowed)
    }

    private static func allowed(_ stmt: Stmt) -> Bool {
        switch stmt {
        case .declare(_, _, let rhs, _):
            return allowed(rhs)
        case .assign(let lv, let rhs, _):
            return allowed(rhs) && lv.path.allSatisfy { if case .index(let e) = $0 { allowed(e) } else { true } }
        case .effect(let effect, _):
            return allowed(effect)
        case .log(let e, _), .throw(let e, _):
            return allowed(e)
        case .if(let arms, let elseBlock, _):
            return arms.allSatisfy { allowed($0.condition) && allowed($0.body.statements) }
                && (elseBlock.map { allowed($0.statements) } ?? true)
        case .while(let condition, let body, _):
            return allowed(condition) && allowed(body.statements)
        case .loop(let body, _):
            return allowed(body.statements)
        case .for(_, let sequence, let body, _):
            return allowed(sequence) && allowed(body.statements)
        case .break, .continue:
            return true
        case .return(let e, _):
            return e.map(allowed) ?? true
        case .try, .transaction, .compensate:
            return false
        }
    }

    private static func allowed(_ rhs: Rhs) -> Bool {
        switch rhs {
        case .expr(let e): return allowed(e)
        case .effect(let effect): return allowed(effect)
        }
    }

    private static func allowed(_ effect: Effect) -> Bool {
        switch effect {
        case .take(let pattern, let condition, _):
            return allowed(pattern) && (condition.map(allowed) ?? true)
        case .put(let first, let second, _):
            return allowed(first) && (second.map(allowed) ?? true)
        case .select(let e, _):
            return e.map(allowed) ?? true
        case .call(_, let args, _):
            return args.allSatisfy(allowed)
        case .delay(let e, let value, _):
            return allowed(e) && (value.map(allowed) ?? true)
        case .channel(let buffer, _, _):
            return buffer.map(allowed) ?? true
        case .actionChannel(let pattern, let buffer, _, _):
            return allowed(pattern) && (buffer.map(allowed) ?? true)
        case .close(let e, _), .flush(let e, _):
            return allowed(e)
        case .fork, .spawn, .join, .cancel, .race, .allRecord, .allList, .allFor, .retry, .watcher:
            return false
        }
    }

    private static func allowed(_ pattern: Pattern) -> Bool {
        if case .expr(let e) = pattern { return allowed(e) }
        return true
    }

    private static func allowed(_ expr: Expr) -> Bool {
        switch expr {
        case .cancelled:
            return false
        case .literal, .variable, .state, .it:
            return true
        case .interpolation(let parts, _):
            return parts.allSatisfy { if case .expr(let e) = $0 { allowed(e) } else { true } }
        case .list(let items, _):
            return items.allSatisfy(allowed)
        case .record(let fields, _):
            return fields.allSatisfy { allowed($0.value) }
        case .member(let base, _, _), .unary(_, let base, _):
            return allowed(base)
        case .index(let base, let index, _), .binary(_, let base, let index, _):
            return allowed(base) && allowed(index)
        case .builtin(_, let args, _):
            return args.allSatisfy(allowed)
        }
    }
}
