import SagaCore

extension Checker {
    /// Checks a block in a scope of its own.
    mutating func checkBlock(_ block: Block) -> Block {
        pushScope()
        defer { popScope() }
        var result = block
        result.statements = []
        result.statements.reserveCapacity(block.statements.count)
        var unreachableAfter: String?
        var warned = false
        for statement in block.statements {
            if let keyword = unreachableAfter, !warned {
                warning("code after '\(keyword)' will never be executed", at: statement.location)
                warned = true
            }
            result.statements.append(checkStmt(statement))
            if unreachableAfter == nil { unreachableAfter = Self.jumpKeyword(statement) }
        }
        return result
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

    /// Checks one statement.
    mutating func checkStmt(_ statement: Stmt) -> Stmt {
        switch statement {
        case .declare(let variable, let isMutable, let rhs, let location):
            let checkedRhs = checkRhs(rhs)
            var plain = false
            if case .expr = rhs { plain = !variable.name.hasPrefix("_") }
            let resolved = declare(variable, isMutable: isMutable, warnsIfUnused: plain)
            return .declare(resolved, isMutable: isMutable, checkedRhs, location)

        case .assign(let target, let rhs, let location):
            let checkedRhs = checkRhs(rhs)
            return .assign(checkLValue(target), checkedRhs, location)

        case .effect(let effect, let location):
            return .effect(checkEffect(effect), location)

        case .log(let expr, let location):
            forbidInReducer("'log'", at: location)
            return .log(checkExpr(expr), location)

        case .throw(let expr, let location):
            forbidInReducer("'throw'", at: location)
            return .throw(checkExpr(expr), location)

        case .if(let arms, let elseBlock, let location):
            let checkedArms = arms.map { arm in
                ConditionalBlock(condition: checkExpr(arm.condition), body: checkBlock(arm.body))
            }
            return .if(checkedArms, else: elseBlock.map { checkBlock($0) }, location)

        case .while(let condition, let body, let location):
            let checkedCondition = checkExpr(condition)
            return .while(checkedCondition, checkLoopBody(body), location)

        case .loop(let body, let location):
            return .loop(checkLoopBody(body), location)

        case .for(let variable, let sequence, let body, let location):
            let checkedSequence = checkExpr(sequence)
            pushScope()
            defer { popScope() }
            let resolved = declare(variable, isMutable: false)
            return .for(resolved, checkedSequence, checkLoopBody(body), location)

        case .break(let location):
            checkJump("break", at: location)
            return statement

        case .continue(let location):
            checkJump("continue", at: location)
            return statement

        case .return(let value, let location):
            if context.inReducer, let value {
                error("a reducer cannot return a value; assign to 'state' instead", at: value.location)
            }
            return .return(value.map { checkExpr($0) }, location)

        case .try(let body, let catchClause, let finallyBlock, let location):
            return checkTry(body, catchClause, finallyBlock, location)

        case .transaction(let body, let location):
            forbidInReducer("'transaction'", at: location)
            let saved = context
            defer { context = saved }
            context.inTransaction = true
            return .transaction(checkBlock(body), location)

        case .compensate(let body, let location):
            if !forbidInReducer("'compensate'", at: location), !context.inTransaction {
                error("compensate must be inside a transaction", at: location)
            }
            let saved = context
            defer { context = saved }
            enterTaskBody(.compensate)
            return .compensate(checkBlock(body), location)
        }
    }

    /// Checks the right-hand side of `let`, `var` or an assignment.
    mutating func checkRhs(_ rhs: Rhs) -> Rhs {
        switch rhs {
        case .expr(let expr): return .expr(checkExpr(expr))
        case .effect(let effect): return .effect(checkEffect(effect))
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
    private mutating func checkLoopBody(_ body: Block) -> Block {
        let saved = context
        defer { context = saved }
        context.inLoop = true
        return checkBlock(body)
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
        _ body: Block, _ catchClause: CatchClause?, _ finallyBlock: Block?, _ location: SourceLocation
    ) -> Stmt {
        let checkedBody = checkBlock(body)
        var checkedCatch: CatchClause?
        if let catchClause {
            pushScope()
            let binding = declare(catchClause.binding, isMutable: false)
            checkedCatch = CatchClause(binding: binding, body: checkBlock(catchClause.body))
            popScope()
        }
        var checkedFinally: Block?
        if let finallyBlock {
            checkedFinally = checkBlock(finallyBlock)
        }
        return .try(checkedBody, catch: checkedCatch, finally: checkedFinally, location)
    }

    /// Checks an assignment target: the variable must exist, be mutable and belong to the
    /// current task body; `state` may be assigned in a reducer only.
    private mutating func checkLValue(_ target: LValue) -> LValue {
        var result = target
        switch target.root {
        case .variable(let variable):
            result.root = .variable(checkAssignedVariable(variable))
        case .state(let location):
            if !context.inReducer {
                error("cannot assign to 'state' outside a reducer; dispatch an action with put instead", at: location)
            } else if let first = target.path.first, case .member("persistence") = first {
                error(
                    "'state.persistence' is kept by the persistence reducer; a reducer may read it, not assign it",
                    at: location)
            }
        }
        result.path = target.path.map { step in
            switch step {
            case .member: return step
            case .index(let expr): return .index(checkExpr(expr))
            }
        }
        return result
    }

    /// Resolves the variable an assignment writes, reporting why it cannot be written.
    private mutating func checkAssignedVariable(_ variable: Variable) -> Variable {
        var resolved = variable
        guard let entry = use(variable.name) else {
            let hint = Suggestions.didYouMean(variable.name, in: namesInScope)
            let advice = hint.isEmpty ? "; declare it with 'var \(variable.name) = …'" : hint
            error("cannot assign to undeclared variable '\(variable.name)'\(advice)", at: variable.location)
            return resolved
        }
        resolved.slot = entry.slot
        if !entry.isMutable {
            error(
                "cannot assign to '\(variable.name)': it is a let constant", at: variable.location,
                note: ("'\(variable.name)' declared here; declare it with 'var' to make it mutable", entry.location))
        } else if entry.taskDepth < context.taskDepth {
            error(capturedMessage(variable.name), at: variable.location)
        }
        return resolved
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
