import SagaCore

extension Checker {
    /// Checks a block in a scope of its own, in place (see ``checkExpr(_:)``).
    mutating func checkBlock(_ block: inout Block) {
        pushScope()
        defer { popScope() }
        var unreachableAfter: String?
        var warned = false
        for i in block.statements.indices {
            if let keyword = unreachableAfter, !warned {
                warning("code after '\(keyword)' will never be executed", at: block.statements[i].location)
                warned = true
            }
            checkStmt(&block.statements[i])
            if unreachableAfter == nil { unreachableAfter = Self.jumpKeyword(block.statements[i]) }
        }
    }

    /// The keyword of a statement that always leaves its block, if it is one.
    private static func jumpKeyword(_ statement: Stmt) -> String? {
        switch statement {
        case .return: return "return"
        case .throw: return "throw"
        case .break: return "break"
        case .continue: return "continue"
        default: return nil
        }
    }

    /// Checks one statement, in place; its parts are taken out while they are checked (the
    /// statement is a `break` meanwhile), so that the arrays in it are uniquely referenced
    /// (and taken out by a `guard case`, for the reason given at ``checkExpr(_:)``).
    mutating func checkStmt(_ statement: inout Stmt) {
        switch statement {
        case .declare:
            guard case .declare(var variable, let isMutable, var rhs, let location) = statement else { return }
            statement = .break(location)
            checkRhs(&rhs)
            var plain = false
            if case .expr = rhs { plain = !variable.name.hasPrefix("_") }
            declare(&variable, isMutable: isMutable, warnsIfUnused: plain)
            statement = .declare(variable, isMutable: isMutable, rhs, location)

        case .assign:
            guard case .assign(var target, var rhs, let location) = statement else { return }
            statement = .break(location)
            checkRhs(&rhs)
            checkLValue(&target)
            statement = .assign(target, rhs, location)

        case .effect:
            guard case .effect(var effect, let location) = statement else { return }
            statement = .break(location)
            checkEffect(&effect)
            statement = .effect(effect, location)

        case .log:
            guard case .log(var expr, let location) = statement else { return }
            statement = .break(location)
            forbidInReducer("'log'", at: location)
            checkExpr(&expr)
            statement = .log(expr, location)

        case .throw:
            guard case .throw(var expr, let location) = statement else { return }
            statement = .break(location)
            forbidInReducer("'throw'", at: location)
            checkExpr(&expr)
            statement = .throw(expr, location)

        case .if:
            guard case .if(var arms, var elseBlock, let location) = statement else { return }
            statement = .break(location)
            for i in arms.indices {
                checkExpr(&arms[i].condition)
                checkBlock(&arms[i].body)
            }
            if var block = elseBlock {
                elseBlock = nil
                checkBlock(&block)
                elseBlock = block
            }
            statement = .if(arms, else: elseBlock, location)

        case .while:
            guard case .while(var condition, var body, let location) = statement else { return }
            statement = .break(location)
            checkExpr(&condition)
            checkLoopBody(&body)
            statement = .while(condition, body, location)

        case .loop:
            guard case .loop(var body, let location) = statement else { return }
            statement = .break(location)
            checkLoopBody(&body)
            statement = .loop(body, location)

        case .for:
            guard case .for(var variable, var sequence, var body, let location) = statement else { return }
            statement = .break(location)
            checkExpr(&sequence)
            pushScope()
            declare(&variable, isMutable: false)
            checkLoopBody(&body)
            popScope()
            statement = .for(variable, sequence, body, location)

        case .break(let location):
            checkJump("break", at: location)

        case .continue(let location):
            checkJump("continue", at: location)

        case .return:
            guard case .return(var value, let location) = statement else { return }
            statement = .break(location)
            if context.inReducer, let value {
                error("a reducer cannot return a value; assign to 'state' instead", at: value.location)
            }
            if var expr = value {
                value = nil
                checkExpr(&expr)
                value = expr
            }
            statement = .return(value, location)

        case .try:
            guard case .try(var body, var catchClause, var finallyBlock, let location) = statement else { return }
            statement = .break(location)
            checkTry(&body, &catchClause, &finallyBlock)
            statement = .try(body, catch: catchClause, finally: finallyBlock, location)

        case .transaction:
            guard case .transaction(var body, let location) = statement else { return }
            statement = .break(location)
            forbidInReducer("'transaction'", at: location)
            let saved = context
            context.inTransaction = true
            checkBlock(&body)
            context = saved
            statement = .transaction(body, location)

        case .compensate:
            guard case .compensate(var body, let location) = statement else { return }
            statement = .break(location)
            if !forbidInReducer("'compensate'", at: location), !context.inTransaction {
                error("compensate must be inside a transaction", at: location)
            }
            let saved = context
            enterTaskBody(.compensate)
            checkBlock(&body)
            context = saved
            statement = .compensate(body, location)
        }
    }

    /// Checks the right-hand side of `let`, `var` or an assignment.
    mutating func checkRhs(_ rhs: inout Rhs) {
        switch rhs {
        case .expr:
            guard case .expr(var expr) = rhs else { return }
            rhs = .expr(.cancelled(expr.location))
            checkExpr(&expr)
            rhs = .expr(expr)
        case .effect:
            guard case .effect(var effect) = rhs else { return }
            rhs = .effect(placeholderEffect)
            checkEffect(&effect)
            rhs = .effect(effect)
        }
    }

    /// Reports `what` if it appears in a reducer. Returns whether it did.
    @discardableResult
    mutating func forbidInReducer(_ what: String, at location: SourceLocation) -> Bool {
        guard context.inReducer else { return false }
        error("\(what) is not allowed in a reducer; reducers are pure", at: location)
        return true
    }

    /// The body of `while`, `loop` or `for`, where `break` and `continue` are valid.
    private mutating func checkLoopBody(_ body: inout Block) {
        let saved = context
        defer { context = saved }
        context.inLoop = true
        checkBlock(&body)
    }

    /// `break` and `continue` need a loop in the same task body.
    private mutating func checkJump(_ keyword: String, at location: SourceLocation) {
        guard !context.inLoop else { return }
        if context.loopBehindBoundary {
            error(
                "'\(keyword)' cannot leave a forked, watcher or compensate block; it runs as a task of its own",
                at: location)
        } else {
            error("'\(keyword)' is only allowed inside a loop", at: location)
        }
    }

    /// `try`/`catch`/`finally`: the catch binding is visible in its block only.
    private mutating func checkTry(
        _ body: inout Block, _ catchClause: inout CatchClause?, _ finallyBlock: inout Block?
    ) {
        checkBlock(&body)
        if var clause = catchClause {
            catchClause = nil
            pushScope()
            declare(&clause.binding, isMutable: false)
            checkBlock(&clause.body)
            popScope()
            catchClause = clause
        }
        if var block = finallyBlock {
            finallyBlock = nil
            checkBlock(&block)
            finallyBlock = block
        }
    }

    /// Checks an assignment target: the variable must exist, be mutable and belong to the
    /// current task body; `state` may be assigned in a reducer only.
    private mutating func checkLValue(_ target: inout LValue) {
        switch target.root {
        case .variable(let variable):
            var resolved = variable
            target.root = .state(.unknown)
            checkAssignedVariable(&resolved)
            target.root = .variable(resolved)
        case .state(let location):
            if !context.inReducer {
                error("cannot assign to 'state' outside a reducer; dispatch an action with put instead", at: location)
            } else if let first = target.path.first, case .member("persistence") = first {
                error(
                    "'state.persistence' is kept by the persistence reducer; a reducer may read it, not assign it",
                    at: location)
            }
        }
        for i in target.path.indices {
            guard case .index(var expr) = target.path[i] else { continue }
            target.path[i] = .member("")
            checkExpr(&expr)
            target.path[i] = .index(expr)
        }
    }

    /// Resolves the variable an assignment writes, reporting why it cannot be written.
    private mutating func checkAssignedVariable(_ variable: inout Variable) {
        guard let entry = use(variable) else {
            let hint = Suggestions.didYouMean(variable.name, in: namesInScope)
            let advice = hint.isEmpty ? "; declare it with 'var \(variable.name) = …'" : hint
            error("cannot assign to undeclared variable '\(variable.name)'\(advice)", at: variable.location)
            return
        }
        variable.slot = entry.slot
        if !entry.isMutable {
            error(
                "cannot assign to '\(variable.name)': it is a let constant", at: variable.location,
                note: ("'\(variable.name)' declared here; declare it with 'var' to make it mutable", entry.location))
        } else if entry.taskDepth < context.taskDepth {
            error(capturedMessage(variable.name), at: variable.location)
        }
    }

    /// Why a block that runs with a copy of the frame cannot assign an outer variable.
    private func capturedMessage(_ name: String) -> String {
        switch context.boundary {
        case .compensate:
            return "cannot assign to '\(name)' captured by a compensate block; "
                + "it runs with a copy of the variables in scope when it was registered"
        case .watcher:
            return "cannot assign to '\(name)' captured by a watcher block; "
                + "tasks share nothing but the store and channels"
        case .fork, nil:
            return "cannot assign to '\(name)' captured by a forked block; "
                + "tasks share nothing but the store and channels"
        }
    }
}
