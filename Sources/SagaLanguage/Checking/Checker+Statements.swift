import SagaCore

extension Checker {
    /// Checks a block in a scope of its own, in place; returns whether it changed (see
    /// ``checkExpr(_:)``: a statement is written back only where it changed, so a block
    /// shared with the tree it came from is copied only then).
    @discardableResult
    mutating func checkBlock(_ block: inout Block) -> Bool {
        pushScope()
        defer { popScope() }
        var unreachable: String?
        var warned = false
        var changed = false
        for i in block.statements.indices {
            if let unreachable, !warned {
                warning(unreachable, at: block.statements[i].location)
                warned = true
            }
            var statement = block.statements[i]
            if checkStmt(&statement) {
                Self.replace(&block.statements, at: i, with: statement)
                changed = true
            }
            if unreachable == nil { unreachable = Self.unreachableWarning(after: statement) }
        }
        return changed
    }

    /// The warning for code after `statement`, if the code never runs: after a jump, or a
    /// loop that only a jump out of its block ends (`loop`, `while true`, with no `break`).
    ///
    /// Out of line, so that ``checkBlock(_:)``'s frame, which every level of nested blocks
    /// takes, stays small.
    @inline(never)
    private static func unreachableWarning(after statement: Stmt) -> String? {
        let keyword: String
        switch statement {
        case .return: keyword = "return"
        case .throw: keyword = "throw"
        case .break: keyword = "break"
        case .continue: keyword = "continue"
        case .loop(let body, _) where !breaksOut(body):
            return "code after a 'loop' with no 'break' will never be executed; to run both, fork the loop: "
                + "fork { loop { … } }"
        case .while(.literal(.bool(true), _), let body, _) where !breaksOut(body):
            return "code after a 'while true' with no 'break' will never be executed; to run both, fork the loop: "
                + "fork { while true { … } }"
        default: return nil
        }
        return "code after '\(keyword)' will never be executed"
    }

    /// Whether a `break` in `body` (not in a loop or a task's block within it) leaves the loop
    /// whose body it is.
    private static func breaksOut(_ body: Block) -> Bool {
        body.statements.contains { statement in
            switch statement {
            case .break: return true
            case .if(let branches, let otherwise, _):
                return branches.contains { breaksOut($0.body) } || otherwise.map(breaksOut) == true
            case .try(let body, let handler, let finally, _):
                return breaksOut(body) || handler.map { breaksOut($0.body) } == true || finally.map(breaksOut) == true
            case .transaction(let body, _), .compensate(let body, _):
                return breaksOut(body)
            default:
                return false
            }
        }
    }

    /// Checks one statement; returns whether it changed, and only then rebuilds it (see
    /// ``checkExpr(_:)``).
    ///
    /// Its parts are taken out by a `guard case`, whose copy ends with the statement, rather
    /// than bound by the `switch`, whose copy would live to the end of the case.
    @discardableResult
    mutating func checkStmt(_ statement: inout Stmt) -> Bool {
        switch statement {
        case .declare:
            guard case .declare(var variable, let isMutable, var rhs, let location) = statement else { return false }
            let rhsChanged = checkRhs(&rhs)
            var plain = false
            if case .expr = rhs { plain = !variable.name.hasPrefix("_") }
            let planned = variable.slot
            let madeChannel: Bool
            switch rhs {
            case .effect(.channel), .effect(.actionChannel): madeChannel = !isMutable
            default: madeChannel = false
            }
            declare(&variable, isMutable: isMutable, warnsIfUnused: plain, holdsChannel: madeChannel)
            guard rhsChanged || variable.slot != planned else { return false }
            statement = .declare(variable, isMutable: isMutable, rhs, location)
            return true

        case .assign:
            guard case .assign(var target, var rhs, let location) = statement else { return false }
            let rhsChanged = checkRhs(&rhs)
            guard checkLValue(&target) || rhsChanged else { return false }
            statement = .assign(target, rhs, location)
            return true

        case .effect:
            guard case .effect(var effect, let location) = statement, checkEffect(&effect) else { return false }
            statement = .effect(effect, location)
            return true

        case .log:
            guard case .log(var expr, let location) = statement else { return false }
            forbidInReducer("'log'", at: location)
            guard checkExpr(&expr) else { return false }
            statement = .log(expr, location)
            return true

        case .throw:
            guard case .throw(var expr, let location) = statement else { return false }
            forbidInReducer("'throw'", at: location)
            guard checkExpr(&expr) else { return false }
            statement = .throw(expr, location)
            return true

        case .if:
            guard case .if(var arms, var elseBlock, let location) = statement else { return false }
            var changed = false
            for i in arms.indices {
                var arm = arms[i]
                warnIfNotBool(arm.condition)
                let conditionChanged = checkExpr(&arm.condition)
                guard checkBlock(&arm.body) || conditionChanged else { continue }
                Self.replace(&arms, at: i, with: arm)
                changed = true
            }
            if var block = elseBlock, checkBlock(&block) {
                elseBlock = block
                changed = true
            }
            guard changed else { return false }
            statement = .if(arms, else: elseBlock, location)
            return true

        case .while:
            guard case .while(var condition, var body, let location) = statement else { return false }
            warnIfNotBool(condition)
            let conditionChanged = checkExpr(&condition)
            guard checkLoopBody(&body) || conditionChanged else { return false }
            statement = .while(condition, body, location)
            return true

        case .loop:
            guard case .loop(var body, let location) = statement, checkLoopBody(&body) else { return false }
            statement = .loop(body, location)
            return true

        case .for:
            guard case .for(var variable, var sequence, var body, let location) = statement else { return false }
            let sequenceChanged = checkExpr(&sequence)
            pushScope()
            let planned = variable.slot
            declare(&variable, isMutable: false)
            let bodyChanged = checkLoopBody(&body)
            popScope()
            guard sequenceChanged || bodyChanged || variable.slot != planned else { return false }
            statement = .for(variable, sequence, body, location)
            return true

        case .break(let location):
            checkJump("break", at: location)
            return false

        case .continue(let location):
            checkJump("continue", at: location)
            return false

        case .return:
            guard case .return(var value, let location) = statement else { return false }
            if context.inReducer, let value {
                error("a reducer cannot return a value; assign to 'state' instead", at: value.location)
            }
            guard var expr = value, checkExpr(&expr) else { return false }
            value = expr
            statement = .return(value, location)
            return true

        case .try:
            guard case .try(var body, var catchClause, var finallyBlock, let location) = statement else {
                return false
            }
            guard checkTry(&body, &catchClause, &finallyBlock) else { return false }
            statement = .try(body, catch: catchClause, finally: finallyBlock, location)
            return true

        case .transaction:
            guard case .transaction(var body, let location) = statement else { return false }
            forbidInReducer("'transaction'", at: location)
            let saved = context
            context.inTransaction = true
            let changed = checkBlock(&body)
            context = saved
            guard changed else { return false }
            statement = .transaction(body, location)
            return true

        case .compensate:
            guard case .compensate(var body, let location) = statement else { return false }
            if !forbidInReducer("'compensate'", at: location), !context.inTransaction {
                if context.transactionBehindBoundary {
                    error(
                        "compensate must be inside a transaction of its own task; a forked, watcher or compensate "
                            + "block runs as a task of its own, outside the transaction around it",
                        at: location)
                } else {
                    error("compensate must be inside a transaction", at: location)
                }
            }
            let saved = context
            enterTaskBody(.compensate)
            let changed = checkBlock(&body)
            context = saved
            guard changed else { return false }
            statement = .compensate(body, location)
            return true
        }
    }

    /// Checks the right-hand side of `let`, `var` or an assignment; returns whether it changed.
    mutating func checkRhs(_ rhs: inout Rhs) -> Bool {
        switch rhs {
        case .expr:
            guard case .expr(var expr) = rhs, checkExpr(&expr) else { return false }
            rhs = .expr(expr)
        case .effect:
            guard case .effect(var effect) = rhs, checkEffect(&effect) else { return false }
            rhs = .effect(effect)
        }
        return true
    }

    /// Reports `what` if it appears in a reducer.
    ///
    /// Returns whether it did.
    @discardableResult
    mutating func forbidInReducer(_ what: String, at location: SourceLocation) -> Bool {
        guard context.inReducer else { return false }
        error("\(what) is not allowed in a reducer; reducers are pure", at: location)
        return true
    }

    /// The body of `while`, `loop` or `for`, where `break` and `continue` are valid.
    private mutating func checkLoopBody(_ body: inout Block) -> Bool {
        let saved = context
        defer { context = saved }
        context.inLoop = true
        return checkBlock(&body)
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
    ///
    /// Returns whether any part changed.
    private mutating func checkTry(
        _ body: inout Block, _ catchClause: inout CatchClause?, _ finallyBlock: inout Block?
    ) -> Bool {
        var changed = checkBlock(&body)
        if var clause = catchClause {
            pushScope()
            let planned = clause.binding.slot
            declare(&clause.binding, isMutable: false)
            let bodyChanged = checkBlock(&clause.body)
            popScope()
            if bodyChanged || clause.binding.slot != planned {
                catchClause = clause
                changed = true
            }
        }
        if var block = finallyBlock, checkBlock(&block) {
            finallyBlock = block
            changed = true
        }
        return changed
    }

    /// Checks an assignment target: the variable must exist, be mutable and belong to the
    /// current task body; `state` may be assigned in a reducer only.
    ///
    /// Returns whether it changed.
    private mutating func checkLValue(_ target: inout LValue) -> Bool {
        var changed = false
        switch target.root {
        case .variable(let variable):
            var resolved = variable
            checkAssignedVariable(&resolved)
            if resolved.slot != variable.slot {
                target.root = .variable(resolved)
                changed = true
            }
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
            guard case .index(var expr) = target.path[i], checkExpr(&expr) else { continue }
            Self.replace(&target.path, at: i, with: .index(expr))
            changed = true
        }
        return changed
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
        // A captured variable cannot be assigned, `var` or not: that is the error to fix.
        if entry.taskDepth < context.taskDepth {
            error(capturedMessage(variable.name), at: variable.location)
        } else if !entry.isMutable {
            error(
                "cannot assign to '\(variable.name)': it is a let constant", at: variable.location,
                note: ("'\(variable.name)' declared here; declare it with 'var' to make it mutable", entry.location))
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
