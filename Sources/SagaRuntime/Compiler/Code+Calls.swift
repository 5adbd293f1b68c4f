import SagaLanguage

extension Code {
    /// Whether code with these instructions, handlers and statements, as a function's body,
    /// runs in a call frame of its caller's task rather than as an owned task of its own (see
    /// ``Interpreter/callCounted(_:_:_:_:)``).
    ///
    /// The two must not be told apart, so a frame is kept to code that could not: no handler
    /// (a `try` or `transaction`: cleanup that runs while unwinding sees `cancelled`, which
    /// differs between a task and a frame), no `cancelled` itself, and no task effect (`fork`,
    /// `spawn`, watchers, `race`, `all`, `retry`, `join`, `cancel`, `compensate`), which would
    /// make children or handles of the caller's task. Effects on the store, channels, the clock
    /// and host functions, and further calls, are all fine.
    static func runsInCallersTask(_ instructions: [Instruction], handlers: [Handler], sites: [Site]) -> Bool {
        guard handlers.isEmpty else { return false }
        for instruction in instructions {
            switch instruction {
            case .cancelled, .forkBlock, .cancelTask, .joinTask: return false
            default: continue
            }
        }
        return sites.allSatisfy { site in
            if let condition = site.condition, !condition.code.runsInCallersTask { return false }
            if case .compensate = site.statement { return false }
            switch Compiler.effect(of: site.statement) {
            case .fork, .spawn, .join, .cancel, .race, .allRecord, .allList, .allFor, .retry, .watcher: return false
            default: return true
            }
        }
    }

    /// What each of `functions` returns when its body is one `return` that runs in its
    /// caller's task (`return EXPR`, or `null` for a bare `return`), by index; `nil` for any
    /// other.
    ///
    /// A saga's code makes the calls of those functions itself, computing the expression over
    /// the arguments with no frame (see ``ValueCall``), as redux-saga calls a plain function
    /// and has its value at once.
    static func returnedValues(of functions: [FunctionDecl]) -> [Expr?] {
        functions.map { function in
            let body = function.body.statements
            guard body.count == 1, case .return(let value, let location) = body[0],
                Code(sagaBody: body, slotCount: max(function.slotCount, function.parameters.count))?
                    .runsInCallersTask == true
            else { return nil }
            return value ?? .literal(.null, location)
        }
    }
}
