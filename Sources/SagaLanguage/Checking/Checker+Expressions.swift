import SagaCore

extension Checker {
    /// Checks an expression and resolves its variables to slots.
    mutating func checkExpr(_ expr: Expr) -> Expr {
        switch expr {
        case .literal:
            return expr

        case .interpolation(let parts, let location):
            let checked = parts.map { part -> InterpolationPart in
                switch part {
                case .text: return part
                case .expr(let inner): return .expr(checkExpr(inner))
                }
            }
            return .interpolation(checked, location)

        case .list(let elements, let location):
            return .list(elements.map { checkExpr($0) }, location)

        case .record(let fields, let location):
            return .record(fields.map { RecordField(key: $0.key, value: checkExpr($0.value)) }, location)

        case .variable(let variable):
            return .variable(resolveVariable(variable))

        case .state(let location):
            if !context.stateReadable, !context.inReducer {
                error("'state' can only be read inside select or a reducer", at: location)
            }
            return expr

        case .cancelled:
            // Readable anywhere, as redux-saga's `cancelled()` is: false unless the task is
            // being cancelled (which only finally blocks and compensations get to see).
            return expr

        case .it(let location):
            if !context.itAllowed {
                error("'it' can only be used in the condition of 'take … where'", at: location)
            }
            return expr

        case .member(let base, let name, let location):
            return .member(checkExpr(base), name, location)

        case .index(let base, let index, let location):
            let checkedBase = checkExpr(base)
            return .index(checkedBase, checkExpr(index), location)

        case .unary(let op, let operand, let location):
            return .unary(op, checkExpr(operand), location)

        case .binary(let op, let left, let right, let location):
            let checkedLeft = checkExpr(left)
            return .binary(op, checkedLeft, checkExpr(right), location)

        case .builtin(let name, let arguments, let location):
            checkBuiltin(name, argumentCount: arguments.count, at: location)
            return .builtin(name, arguments.map { checkExpr($0) }, location)
        }
    }

    /// Resolves a variable read to the slot of its innermost visible declaration.
    private mutating func resolveVariable(_ variable: Variable) -> Variable {
        var resolved = variable
        if let entry = use(variable.name) {
            resolved.slot = entry.slot
        } else {
            let hint = Suggestions.didYouMean(variable.name, in: namesInScope)
            error("unknown variable '\(variable.name)'\(hint)", at: variable.location)
        }
        return resolved
    }

    /// A built-in call must name a built-in and give it as many arguments as it takes. A saga
    /// or host function named here gets a message that says how to call it instead.
    private mutating func checkBuiltin(_ name: String, argumentCount: Int, at location: SourceLocation) {
        guard let builtin = Builtin(rawValue: name) else {
            if functionIndex.value(for: name) != nil {
                error("'\(name)' is a saga function; call it with call, fork or spawn", at: location)
            } else if hostFunctions.contains(name) {
                error("'\(name)' is a host function; call it with call, fork or spawn", at: location)
            } else if sagaNames.value(for: name) != nil {
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
