import SagaCore

extension Checker {
    /// Checks an effect (and the effects nested in it) and resolves its names, in place (see
    /// ``checkExpr(_:)``).
    ///
    /// In a reducer the outermost effect is reported once; what it holds is still resolved,
    /// so other mistakes inside it are reported too.
    mutating func checkEffect(_ effect: inout Effect) {
        guard context.inReducer, !context.reducerEffectReported else {
            checkEffectParts(&effect)
            return
        }
        error("effects are not allowed in a reducer; reducers are pure", at: effect.location)
        let saved = context
        defer { context = saved }
        context.reducerEffectReported = true
        checkEffectParts(&effect)
    }

    /// Checks an optional expression in place.
    private mutating func checkExpr(_ expr: inout Expr?) {
        guard var inner = expr else { return }
        expr = nil
        checkExpr(&inner)
        expr = inner
    }

    private mutating func checkEffectParts(_ effect: inout Effect) {
        // Each case takes its parts out with a `guard case` and lets go of the effect before
        // they are changed: the box then no longer holds them, and the arrays in them are
        // uniquely referenced (see ``checkExpr(_:)`` for why not with the `switch`).
        switch effect {
        case .take:
            guard case .take(var pattern, var condition, let location) = effect else { return }
            effect = placeholderEffect
            checkPattern(&pattern)
            if var inner = condition {
                condition = nil
                checkWhereCondition(&inner)
                condition = inner
            }
            effect = .take(pattern, where: condition, location)

        case .put:
            guard case .put(var first, var second, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&first)
            checkExpr(&second)
            effect = .put(first, second, location)

        case .select:
            guard case .select(var expr, let location) = effect else { return }
            effect = placeholderEffect
            let saved = context
            context.stateReadable = true
            checkExpr(&expr)
            context = saved
            effect = .select(expr, location)

        case .call:
            guard case .call(let callee, var arguments, let location) = effect else { return }
            effect = placeholderEffect
            let resolved = resolveCallee(callee, argumentCount: arguments.count)
            for i in arguments.indices { checkExpr(&arguments[i]) }
            effect = .call(resolved, arguments, location)

        case .fork:
            guard case .fork(var body, let location) = effect else { return }
            effect = placeholderEffect
            checkTaskBody(&body)
            effect = .fork(body, location)

        case .spawn:
            guard case .spawn(var body, let location) = effect else { return }
            effect = placeholderEffect
            checkTaskBody(&body)
            effect = .spawn(body, location)

        case .join:
            guard case .join(var expr, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&expr)
            effect = .join(expr, location)

        case .cancel:
            guard case .cancel(var expr, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&expr)
            effect = .cancel(expr, location)

        case .delay:
            guard case .delay(var expr, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&expr)
            effect = .delay(expr, location)

        case .race:
            guard case .race(var entries, let location) = effect else { return }
            effect = placeholderEffect
            checkEntries(&entries, in: "race")
            effect = .race(entries, location)

        case .allRecord:
            guard case .allRecord(var entries, let location) = effect else { return }
            effect = placeholderEffect
            checkEntries(&entries, in: "all")
            effect = .allRecord(entries, location)

        case .allList:
            guard case .allList(var effects, let location) = effect else { return }
            effect = placeholderEffect
            for i in effects.indices {
                var inner = effects[i]
                effects[i] = placeholderEffect
                checkEffectParts(&inner)
                effects[i] = inner
            }
            effect = .allList(effects, location)

        case .allFor:
            guard case .allFor(var variable, var list, var body, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&list)
            pushScope()
            declare(&variable, isMutable: false)
            checkEffectParts(&body)
            popScope()
            effect = .allFor(variable, list, body, location)

        case .retry:
            guard case .retry(var count, var wait, var body, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&count)
            if var checked = wait {
                wait = nil
                checkWait(&checked)
                wait = checked
            }
            checkEffectParts(&body)
            effect = .retry(count: count, wait: wait, body, location)

        case .channel:
            guard case .channel(var buffer, let location) = effect else { return }
            effect = placeholderEffect
            checkExpr(&buffer)
            effect = .channel(buffer: buffer, location)

        case .actionChannel:
            guard case .actionChannel(var pattern, var buffer, let location) = effect else { return }
            effect = placeholderEffect
            checkPattern(&pattern)
            checkExpr(&buffer)
            effect = .actionChannel(pattern, buffer: buffer, location)

        case .watcher:
            guard case .watcher(var watcher) = effect else { return }
            effect = placeholderEffect
            checkWatcher(&watcher)
            effect = .watcher(watcher)
        }
    }

    /// A pattern is a plain expression (or `*`), evaluated where it stands.
    mutating func checkPattern(_ pattern: inout Pattern) {
        guard case .expr(var expr) = pattern else { return }
        pattern = .any(.unknown)
        checkExpr(&expr)
        pattern = .expr(expr)
    }

    /// The condition of `take … where`, the one place `it` is valid.
    private mutating func checkWhereCondition(_ condition: inout Expr) {
        let saved = context
        defer { context = saved }
        context.itAllowed = true
        checkExpr(&condition)
    }

    /// The entries of `race { }` or `all { }`: keys must differ, since the result is a record.
    private mutating func checkEntries(_ entries: inout [EffectEntry], in what: String) {
        var seen: Set<String> = []
        for i in entries.indices {
            if !seen.insert(entries[i].key).inserted {
                error("duplicate key '\(entries[i].key)' in \(what)", at: entries[i].effect.location)
            }
            var inner = entries[i].effect
            entries[i].effect = placeholderEffect
            checkEffectParts(&inner)
            entries[i].effect = inner
        }
    }

    /// What `fork` or `spawn` runs: a callee, or a block that is a task body of its own.
    private mutating func checkTaskBody(_ body: inout TaskBody) {
        switch body {
        case .call:
            guard case .call(let callee, var arguments) = body else { return }
            body = .call(callee, [])
            let resolved = resolveCallee(callee, argumentCount: arguments.count)
            for i in arguments.indices { checkExpr(&arguments[i]) }
            body = .call(resolved, arguments)
        case .block:
            guard case .block(var block) = body else { return }
            body = .call(.named("", .unknown), [])
            let saved = context
            defer { context = saved }
            enterTaskBody(.fork)
            checkBlock(&block)
            body = .block(block)
        }
    }

    /// The wait of `retry`, in place.
    private mutating func checkWait(_ wait: inout RetryWait) {
        switch wait {
        case .delay:
            guard case .delay(var expr) = wait else { return }
            wait = .delay(.cancelled(expr.location))
            checkExpr(&expr)
            wait = .delay(expr)
        case .backoff:
            guard case .backoff(var expr) = wait else { return }
            wait = .backoff(.cancelled(expr.location))
            checkExpr(&expr)
            wait = .backoff(expr)
        }
    }

    /// A watcher: its duration and pattern are evaluated in the enclosing scope; its binding
    /// is visible only in its body, which is a task body of its own.
    private mutating func checkWatcher(_ watcher: inout Watcher) {
        checkExpr(&watcher.duration)
        checkPattern(&watcher.pattern)
        let saved = context
        defer { context = saved }
        enterTaskBody(.watcher)
        pushScope()
        defer { popScope() }
        declare(&watcher.binding, isMutable: false)
        checkBlock(&watcher.body)
    }

    /// Resolves what `call`, `fork` or `spawn` names: a program function (whose arity must
    /// match) or a host function.
    mutating func resolveCallee(_ callee: Callee, argumentCount: Int) -> Callee {
        guard case .named(let name, let location) = callee else { return callee }
        if let index = functionIndex(of: name), index < functions.count {
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
        if isSagaName(name) {
            error(
                "cannot call root saga '\(name)'; it starts on its own (declare it with 'func' to call it)",
                at: location)
        } else if Builtin(rawValue: name) != nil {
            error("'\(name)' is a built-in pure function; use it in an expression, as in \(name)(…)", at: location)
        } else {
            var candidates = hostFunctions
            declarationNames.forEach { declared, entry in
                if declaredNames[entry].function >= 0 { candidates.insert(declared) }
            }
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
