import SagaCore

extension Checker {
    /// Checks an effect (and the effects nested in it) and resolves its names.
    ///
    /// In a reducer the outermost effect is reported once; what it holds is still resolved,
    /// so other mistakes inside it are reported too.
    mutating func checkEffect(_ effect: Effect) -> Effect {
        guard context.inReducer, !context.reducerEffectReported else {
            return checkEffectParts(effect)
        }
        error("effects are not allowed in a reducer; reducers are pure", at: effect.location)
        let saved = context
        defer { context = saved }
        context.reducerEffectReported = true
        return checkEffectParts(effect)
    }

    private mutating func checkEffectParts(_ effect: Effect) -> Effect {
        switch effect {
        case .take(let pattern, let condition, let location):
            let checkedPattern = checkPattern(pattern)
            return .take(checkedPattern, where: condition.map { checkWhereCondition($0) }, location)

        case .put(let first, let second, let location):
            return .put(checkExpr(first), second.map { checkExpr($0) }, location)

        case .select(let expr, let location):
            let saved = context
            defer { context = saved }
            context.stateReadable = true
            return .select(expr.map { checkExpr($0) }, location)

        case .call(let callee, let arguments, let location):
            return .call(
                resolveCallee(callee, argumentCount: arguments.count), arguments.map { checkExpr($0) }, location)

        case .fork(let body, let location):
            return .fork(checkTaskBody(body), location)

        case .spawn(let body, let location):
            return .spawn(checkTaskBody(body), location)

        case .join(let expr, let location):
            return .join(checkExpr(expr), location)

        case .cancel(let expr, let location):
            return .cancel(expr.map { checkExpr($0) }, location)

        case .delay(let expr, let location):
            return .delay(checkExpr(expr), location)

        case .race(let entries, let location):
            return .race(checkEntries(entries, in: "race"), location)

        case .allRecord(let entries, let location):
            return .allRecord(checkEntries(entries, in: "all"), location)

        case .allList(let effects, let location):
            return .allList(effects.map { checkEffectParts($0) }, location)

        case .allFor(let variable, let list, let body, let location):
            let checkedList = checkExpr(list)
            pushScope()
            defer { popScope() }
            let resolved = declare(variable, isMutable: false)
            return .allFor(resolved, checkedList, checkEffectParts(body), location)

        case .retry(let count, let wait, let body, let location):
            let checkedCount = checkExpr(count)
            let checkedWait: RetryWait? =
                switch wait {
                case .delay(let expr): .delay(checkExpr(expr))
                case .backoff(let expr): .backoff(checkExpr(expr))
                case nil: nil
                }
            return .retry(count: checkedCount, wait: checkedWait, checkEffectParts(body), location)

        case .channel(let buffer, let location):
            return .channel(buffer: buffer.map { checkExpr($0) }, location)

        case .actionChannel(let pattern, let buffer, let location):
            return .actionChannel(checkPattern(pattern), buffer: buffer.map { checkExpr($0) }, location)

        case .watcher(let watcher):
            return .watcher(checkWatcher(watcher))
        }
    }

    /// A pattern is a plain expression (or `*`), evaluated where it stands.
    mutating func checkPattern(_ pattern: Pattern) -> Pattern {
        switch pattern {
        case .any: return pattern
        case .expr(let expr): return .expr(checkExpr(expr))
        }
    }

    /// The condition of `take … where`, the one place `it` is valid.
    private mutating func checkWhereCondition(_ condition: Expr) -> Expr {
        let saved = context
        defer { context = saved }
        context.itAllowed = true
        return checkExpr(condition)
    }

    /// The entries of `race { }` or `all { }`: keys must differ, since the result is a record.
    private mutating func checkEntries(_ entries: [EffectEntry], in what: String) -> [EffectEntry] {
        var seen: Set<String> = []
        return entries.map { entry in
            if !seen.insert(entry.key).inserted {
                error("duplicate key '\(entry.key)' in \(what)", at: entry.effect.location)
            }
            return EffectEntry(key: entry.key, effect: checkEffectParts(entry.effect))
        }
    }

    /// What `fork` or `spawn` runs: a callee, or a block that is a task body of its own.
    private mutating func checkTaskBody(_ body: TaskBody) -> TaskBody {
        switch body {
        case .call(let callee, let arguments):
            return .call(resolveCallee(callee, argumentCount: arguments.count), arguments.map { checkExpr($0) })
        case .block(let block):
            let saved = context
            defer { context = saved }
            enterTaskBody(.fork)
            return .block(checkBlock(block))
        }
    }

    /// A watcher: its duration and pattern are evaluated in the enclosing scope; its binding
    /// is visible only in its body, which is a task body of its own.
    private mutating func checkWatcher(_ watcher: Watcher) -> Watcher {
        var result = watcher
        result.duration = watcher.duration.map { checkExpr($0) }
        result.pattern = checkPattern(watcher.pattern)
        let saved = context
        defer { context = saved }
        enterTaskBody(.watcher)
        pushScope()
        defer { popScope() }
        result.binding = declare(watcher.binding, isMutable: false)
        result.body = checkBlock(watcher.body)
        return result
    }

    /// Resolves what `call`, `fork` or `spawn` names: a program function (whose arity must
    /// match) or a host function.
    mutating func resolveCallee(_ callee: Callee, argumentCount: Int) -> Callee {
        guard case .named(let name, let location) = callee else { return callee }
        if let index = functionIndex.value(for: name), index < functions.count {
            let function = functions[index]
            if function.arity != argumentCount {
                error(
                    "'\(name)' takes \(Self.count(function.arity, "argument")) but "
                        + "\(Self.count(argumentCount, "was", plural: "were")) given",
                    at: location, note: ("'\(name)' declared here", function.location))
            }
            return .function(index, location)
        }
        if hostFunctions.contains(name) {
            return .host(name, location)
        }
        if sagaNames.value(for: name) != nil {
            error(
                "cannot call root saga '\(name)'; it starts on its own (declare it with 'func' to call it)",
                at: location)
        } else if Builtin(rawValue: name) != nil {
            error("'\(name)' is a built-in pure function; use it in an expression, as in \(name)(…)", at: location)
        } else {
            var candidates = hostFunctions
            functionIndex.forEach { function, _ in candidates.insert(function) }
            error("unknown function '\(name)'\(Suggestions.didYouMean(name, in: candidates))", at: location)
        }
        return callee
    }

    /// `"1 argument"`, `"2 arguments"`; with `plural`, `"1 was"`, `"3 were"`.
    static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        if let plural { return "\(n) \(n == 1 ? singular : plural)" }
        return "\(n) \(singular)\(n == 1 ? "" : "s")"
    }
}
