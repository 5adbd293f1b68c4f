import SagaCore

extension Checker {
    /// Checks an expression and resolves its variables to slots, in place.
    ///
    /// In place, so that a list's elements or a call's arguments are resolved in the array
    /// the parser made instead of a copy: rebuilding every array of the tree was a fifth of
    /// the allocations of parse + check (callgrind, `sagabench parse-check`). A node's parts
    /// are taken out and the node set to a placeholder first, so that the arrays and nodes
    /// it holds are uniquely referenced while they are changed.
    ///
    /// The parts are taken out by a `guard case` of their own, not by the `switch` that tells
    /// the cases apart: the copy of the node a `switch` binds from lives until the end of the
    /// case, so the node's box, and every array in it, stayed referenced and was copied on
    /// the first change (callgrind: an array copy per list, record, call and block), whereas a
    /// `guard case`'s copy ends with the statement.
    mutating func checkExpr(_ expr: inout Expr) {
        switch expr {
        case .literal:
            return

        case .interpolation:
            guard case .interpolation(var parts, let location) = expr else { return }
            expr = .cancelled(location)
            for i in parts.indices {
                guard case .expr(var inner) = parts[i] else { continue }
                parts[i] = .text("")
                checkExpr(&inner)
                parts[i] = .expr(inner)
            }
            expr = .interpolation(parts, location)

        case .list:
            guard case .list(var elements, let location) = expr else { return }
            expr = .cancelled(location)
            for i in elements.indices { checkExpr(&elements[i]) }
            expr = .list(elements, location)

        case .record:
            guard case .record(var fields, let location) = expr else { return }
            expr = .cancelled(location)
            for i in fields.indices { checkExpr(&fields[i].value) }
            expr = .record(fields, location)

        case .variable:
            guard case .variable(var variable) = expr else { return }
            resolveVariable(&variable)
            expr = .variable(variable)

        case .state(let location):
            if !context.stateReadable, !context.inReducer {
                error("'state' can only be read inside select or a reducer", at: location)
            }

        case .cancelled:
            // Readable anywhere, as redux-saga's `cancelled()` is: false unless the task is
            // being cancelled (which only finally blocks and compensations get to see).
            return

        case .it(let location):
            if !context.itAllowed {
                error("'it' can only be used in the condition of 'take … where'", at: location)
            }

        case .member:
            guard case .member(var base, let name, let location) = expr else { return }
            expr = .cancelled(location)
            checkExpr(&base)
            expr = .member(base, name, location)

        case .index:
            guard case .index(var base, var index, let location) = expr else { return }
            expr = .cancelled(location)
            checkExpr(&base)
            checkExpr(&index)
            expr = .index(base, index, location)

        case .unary:
            guard case .unary(let op, var operand, let location) = expr else { return }
            expr = .cancelled(location)
            checkExpr(&operand)
            expr = .unary(op, operand, location)

        case .binary:
            guard case .binary(let op, var left, var right, let location) = expr else { return }
            expr = .cancelled(location)
            checkExpr(&left)
            checkExpr(&right)
            expr = .binary(op, left, right, location)

        case .builtin:
            guard case .builtin(let name, var arguments, let location) = expr else { return }
            expr = .cancelled(location)
            checkBuiltin(name, argumentCount: arguments.count, at: location)
            for i in arguments.indices { checkExpr(&arguments[i]) }
            expr = .builtin(name, arguments, location)
        }
    }

    /// Resolves a variable read to the slot of its innermost visible declaration.
    private mutating func resolveVariable(_ variable: inout Variable) {
        if let entry = use(variable) {
            variable.slot = entry.slot
        } else {
            let hint = Suggestions.didYouMean(variable.name, in: namesInScope)
            error("unknown variable '\(variable.name)'\(hint)", at: variable.location)
        }
    }

    /// A built-in call must name a built-in and give it as many arguments as it takes. A saga
    /// or host function named here gets a message that says how to call it instead.
    private mutating func checkBuiltin(_ name: String, argumentCount: Int, at location: SourceLocation) {
        guard let builtin = Builtin(rawValue: name) else {
            if functionIndex(of: name) != nil {
                error("'\(name)' is a saga function; call it with call, fork or spawn", at: location)
            } else if hostFunctions.contains(name) {
                error("'\(name)' is a host function; call it with call, fork or spawn", at: location)
            } else if isSagaName(name) {
                error("'\(name)' is a root saga; it starts on its own and cannot be called", at: location)
            } else {
                let hint = Suggestions.didYouMean(name, in: Builtin.allCases.map(\.rawValue))
                error("unknown function '\(name)'\(hint)", at: location)
            }
            return
        }
        let arity = builtin.arity
        guard !arity.contains(argumentCount) else { return }
        let takes: String
        if arity.lowerBound == arity.upperBound {
            takes = arity.lowerBound == 0 ? "no arguments" : Self.count(arity.lowerBound, "argument")
        } else if arity.upperBound == arity.lowerBound + 1 {
            takes = "\(arity.lowerBound) or \(arity.upperBound) arguments"
        } else {
            takes = "\(arity.lowerBound) to \(arity.upperBound) arguments"
        }
        error(
            "'\(name)' takes \(takes) but \(Self.count(argumentCount, "was", plural: "were")) given",
            at: location)
    }
}
