import SagaCore

extension Checker {
    /// Warns of JavaScript's `${x}` in a string's text, where it is text: `\(x)` puts a value
    /// in.
    ///
    /// Out of line, so that ``checkExpr(_:)``'s frame, which every level of a nested expression
    /// takes, stays small.
    @inline(never)
    private mutating func warnOfTemplateSyntax(_ text: String, at location: SourceLocation) {
        // Most strings have no `$`: one pass over the bytes rules them out.
        guard text.utf8.contains(UInt8(ascii: "$")), text.contains("${") else { return }
        warning("'${…}' is text in a string: write '\\(…)' to put a value in it", at: location)
    }

    /// Checks an expression and resolves its variables to slots, in place; returns whether it
    /// changed.
    ///
    /// A node is rebuilt only when something in it changed: when the Frontend parses, each
    /// variable already has the slot the checker gives it (Parser+Slots.swift), and the tree
    /// is only read. Rebuilding every node around its resolved children would be an allocation
    /// and a free per node. Where a variable did change (an AST parsed without planned slots,
    /// or built by hand), its ancestors are rebuilt around the new node and share what did not
    /// change.
    @discardableResult
    mutating func checkExpr(_ expr: inout Expr) -> Bool {
        switch expr {
        case .literal, .cancelled:
            // `cancelled` is readable anywhere, as redux-saga's `cancelled()` is: false unless
            // the task is being cancelled (which only finally blocks and compensations see).
            if case .literal(.string(let text), let at) = expr { warnOfTemplateSyntax(text, at: at) }
            return false

        case .interpolation:
            guard case .interpolation(var parts, let location) = expr else { return false }
            var changed = false
            for i in parts.indices {
                if case .text(let text) = parts[i] { warnOfTemplateSyntax(text, at: location) }
                guard case .expr(var inner) = parts[i], checkExpr(&inner) else { continue }
                Self.replace(&parts, at: i, with: .expr(inner))
                changed = true
            }
            if changed { expr = .interpolation(parts, location) }
            return changed

        case .list:
            guard case .list(var elements, let location) = expr else { return false }
            guard checkEach(&elements) else { return false }
            expr = .list(elements, location)
            return true

        case .record:
            guard case .record(var fields, let location) = expr else { return false }
            var changed = false
            for i in fields.indices {
                var field = fields[i]
                guard checkExpr(&field.value) else { continue }
                Self.replace(&fields, at: i, with: field)
                changed = true
            }
            if fields.count > 1 { warnAboutDuplicateKeys(fields) }
            if changed { expr = .record(fields, location) }
            return changed

        case .variable:
            guard case .variable(var variable) = expr else { return false }
            guard let slot = usedSlot(of: variable) else {
                reportUnknownVariable(variable)
                return false
            }
            guard slot != variable.slot else { return false }
            variable.slot = slot
            expr = .variable(variable)
            return true

        case .state(let location):
            if !context.stateReadable, !context.inReducer {
                error("'state' can only be read inside select or a reducer", at: location)
            }
            return false

        case .it(let location):
            if !context.itAllowed {
                error("'it' can only be used in the condition of 'take … where'", at: location)
            }
            return false

        case .member:
            // A member of a literal that has none (`5.a`) fails whenever it runs: a warning, as
            // for the literal operands of ``checkLiterals(_:_:_:at:)``.
            if case .member(.literal(let value, _), let name, let at) = expr {
                switch value {
                case .int, .double, .bool, .string:
                    warning("cannot read '.\(name)' of a \(value.kindName): this fails whenever it runs", at: at)
                default: break
                }
            }
            guard case .member(var base, let name, let location) = expr, checkExpr(&base) else { return false }
            expr = .member(base, name, location)
            return true

        case .index:
            guard case .index(var base, var index, let location) = expr else { return false }
            let baseChanged = checkExpr(&base)
            guard checkExpr(&index) || baseChanged else { return false }
            expr = .index(base, index, location)
            return true

        case .unary:
            guard case .unary(let op, var operand, let location) = expr, checkExpr(&operand) else { return false }
            expr = .unary(op, operand, location)
            return true

        case .binary:
            guard case .binary(let op, var left, var right, let location) = expr else { return false }
            let leftChanged = checkExpr(&left)
            let rightChanged = checkExpr(&right)
            if case .literal(let a, _) = left, case .literal(let b, _) = right { checkLiterals(op, a, b, at: location) }
            guard rightChanged || leftChanged else { return false }
            expr = .binary(op, left, right, location)
            return true

        case .builtin:
            guard case .builtin(let name, var arguments, let location) = expr else { return false }
            checkBuiltin(name, argumentCount: arguments.count, at: location)
            guard checkEach(&arguments) else { return false }
            expr = .builtin(name, arguments, location)
            return true
        }
    }

    /// Warns of an `if`, `while` or `take … where` condition that is a literal other than `true` or `false`,
    /// which the run refuses whenever it gets there (a warning, as for the literal operands of
    /// ``checkLiterals(_:_:_:at:)``).
    mutating func warnIfNotBool(_ condition: Expr) {
        guard case .literal(let value, let at) = condition else { return }
        if case .bool = value { return }
        warning("a condition must be true or false, got \(value.kindName): this fails whenever it runs", at: at)
    }

    /// Whether `value` is a list.
    static func isList(_ value: Value) -> Bool {
        if case .list = value { return true }
        return false
    }

    /// Whether `value` is an integer.
    static func isInt(_ value: Value) -> Bool {
        if case .int = value { return true }
        return false
    }

    /// The whole number a literal stands for, a negative one (`-1`) included, and where it is.
    static func literalInt(_ expr: Expr) -> (value: Int, at: SourceLocation)? {
        switch expr {
        case .literal(.int(let n), let at): return (n, at)
        case .unary(.negate, .literal(.int(let n), _), let at): return n == .min ? nil : (-n, at)
        default: return nil
        }
    }

    /// An arithmetic or ordering operator between two literals that fails whenever it runs
    /// (`1 + "a"`, `"a" < 2`, `1 / 0`): a warning, at the expression. (Not an error: a program
    /// may mean it, to show what a `catch` gets.)
    private mutating func checkLiterals(_ op: BinaryOperator, _ a: Value, _ b: Value, at location: SourceLocation) {
        do throws(SagaError) {
            switch op {
            case .add: _ = try Value.add(a, b)
            case .subtract: _ = try Value.subtract(a, b)
            case .multiply: _ = try Value.multiply(a, b)
            case .divide: _ = try Value.divide(a, b)
            case .remainder: _ = try Value.remainder(a, b)
            case .less: _ = try Value.less(a, b)
            case .lessEqual: _ = try Value.lessOrEqual(a, b)
            case .greater: _ = try Value.greater(a, b)
            case .greaterEqual: _ = try Value.greaterOrEqual(a, b)
            case .equal, .notEqual, .and, .or, .coalesce: break
            }
        } catch {
            warning("\(error.message): this fails whenever it runs", at: location)
        }
    }

    /// Writes `element` at `index` of `list`, for the checks that write back only what
    /// changed.
    ///
    /// Out of line: with the write inline in a loop that reads the list, the optimizer makes
    /// the list unique before the loop (copying it when the tree still shares it) whether or
    /// not anything is written, a copy of every block and list checked.
    @inline(never)
    static func replace<Element>(_ list: inout [Element], at index: Int, with element: Element) {
        list[index] = element
    }

    /// Checks each expression of a list in place; returns whether any changed.
    ///
    /// The list is written (and so copied, if shared) only where one did.
    mutating func checkEach(_ list: inout [Expr]) -> Bool {
        var changed = false
        for i in list.indices {
            var element = list[i]
            guard checkExpr(&element) else { continue }
            Self.replace(&list, at: i, with: element)
            changed = true
        }
        return changed
    }

    /// The slot of the innermost visible declaration of a variable read, marked as used.
    ///
    /// Inlined, and giving the slot only rather than the whole entry (as ``use(_:)`` does):
    /// reads are most of the names checked.
    @inline(__always)
    private mutating func usedSlot(of variable: Variable) -> Int? {
        guard let index = scopes.lookup(nameID(of: variable)) else { return nil }
        scopes.markUsed(index)
        let slot = scopes.entry(at: index).slot
        noteSlot(slot)
        return slot
    }

    /// Warns of each key a record literal repeats (`{a: 1, a: 2}`): the last one wins, as in
    /// JavaScript, but it is almost always a slip.
    ///
    /// A few keys are compared pair by pair (no set to allocate for each literal of a file).
    private mutating func warnAboutDuplicateKeys(_ fields: [RecordField]) {
        if fields.count <= 16 {
            for i in 1..<fields.count where fields[..<i].contains(where: { $0.key == fields[i].key }) {
                warnAboutDuplicate(fields[i])
            }
            return
        }
        var seen: Set<String> = []
        for field in fields where !seen.insert(field.key).inserted { warnAboutDuplicate(field) }
    }

    @inline(never)
    private mutating func warnAboutDuplicate(_ field: RecordField) {
        warning("duplicate key '\(field.key)' in a record literal: the last one wins", at: field.value.location)
    }

    /// The keywords that stand where a variable may (`let ch = channel`, `if cancelled`), for
    /// a misspelt one's "did you mean".
    private static let keywordsLikeVariables = ["channel", "actionChannel", "cancelled", "true", "false", "null"]

    /// Reports a read of a variable that no visible declaration names.
    @inline(never)
    private mutating func reportUnknownVariable(_ variable: Variable) {
        var hint = Suggestions.didYouMean(variable.name, in: namesInScope)
        // `let ch = chanel`: a keyword that stands where a variable would.
        if hint.isEmpty { hint = Suggestions.didYouMean(variable.name, in: Self.keywordsLikeVariables) }
        // `let a = take "t" where a.x > 1`: the action is not `a` until the take gives it.
        if context.itAllowed {
            hint =
                hint.isEmpty
                ? "; in a 'where' condition the action is 'it'" : hint + " (in a 'where' condition the action is 'it')"
        }
        // Whether the name is a function's waits, while the program's names are not all known.
        if deferredLookups != nil {
            deferredLookups?.append(DeferredLookup(.variable(variable, hint: hint), at: diagnostics.count))
            return
        }
        reportUnknown(variable, hint: hint)
    }

    /// The error for a variable that no visible declaration names, once the program's names are
    /// known: a function's name read as a value (redux-saga's `select(getUser)`) says how to
    /// call it.
    mutating func reportUnknown(_ variable: Variable, hint: String) {
        let name = variable.name
        if functionIndex(of: name) != nil {
            error(
                "'\(name)' is a function, not a value: to run it, write 'call \(name)(…)' (for redux-saga's "
                    + "select(\(name)): 'let s = select', then 'let v = call \(name)(s)')",
                at: variable.location)
            return
        }
        error("unknown variable '\(name)'\(hint)", at: variable.location)
    }

    /// redux-saga's channel makers and JavaScript's error constructors and conversions,
    /// written as calls, with what to write instead.
    private static let reduxSagaFunctions = [
        "eventChannel":
            "an event channel comes from a host function (see “Event channels”: the host sends, and closes it)",
        "multicastChannel": "a channel here delivers each message to one taker; write 'channel'",
        "Error": thrownValueAdvice, "TypeError": thrownValueAdvice, "RangeError": thrownValueAdvice,
        "String": "write 'str(x)'", "Number": "write 'number(x)'", "parseInt": "write 'int(s)'",
        "parseFloat": "write 'number(s)'",
    ]

    /// What to throw instead of JavaScript's `Error("…")`.
    private static let thrownValueAdvice =
        "there are no error classes: throw a value, such as 'throw \"message\"' or 'throw { message: \"…\", code: 42 }'"

    /// A built-in call must name a built-in and give it as many arguments as it takes.
    ///
    /// A saga or host function named here gets a message that says how to call it instead.
    ///
    /// A name that is not a built-in's waits, while the program's names are not all known
    /// (``deferredLookups``), since its message depends on what the program declares.
    mutating func checkBuiltin(
        _ name: String, argumentCount: Int, at location: SourceLocation, inReducer: Bool? = nil,
        inSelect: Bool? = nil
    ) {
        let inReducer = inReducer ?? context.inReducer
        let inSelect = inSelect ?? (context.stateReadable && !inReducer)
        guard let builtin = Builtin(rawValue: name) else {
            if deferredLookups != nil {
                deferredLookups?.append(
                    DeferredLookup(
                        .builtin(
                            name, argumentCount: argumentCount, location, inReducer: inReducer, inSelect: inSelect),
                        at: diagnostics.count))
                return
            }
            let isSagaFunction = functionIndex(of: name) != nil
            if inReducer, isSagaFunction || hostFunctions.contains(name) {
                error(
                    "'\(name)' is a \(isSagaFunction ? "saga" : "host") function, which a reducer cannot call; "
                        + "reducers are pure: call it in a saga and put what it returns",
                    at: location)
            } else if isSagaFunction, inSelect {
                // redux-saga's `select(getUser)`, written `select getUser(state)`.
                error(
                    "'\(name)' is a saga function, which a select cannot run: write 'let s = select', then "
                        + "'let v = call \(name)(s)'",
                    at: location)
            } else if isSagaFunction {
                error("'\(name)' is a saga function; call it with call, fork or spawn", at: location)
            } else if hostFunctions.contains(name) {
                error("'\(name)' is a host function; call it with call, fork or spawn", at: location)
            } else if isSagaName(name) {
                error("'\(name)' is a root saga; it starts on its own and cannot be called", at: location)
            } else if let advice = Self.reduxSagaFunctions[name] {
                error("unknown function '\(name)'; \(advice)", at: location)
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
