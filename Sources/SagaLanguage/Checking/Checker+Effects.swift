import SagaCore

extension Checker {
    /// Checks an effect (and the effects nested in it) and resolves its names, in place;
    /// returns whether it changed (see ``checkExpr(_:)``).
    ///
    /// In a reducer the outermost effect is reported once; what it holds is still resolved,
    /// so other mistakes inside it are reported too.
    mutating func checkEffect(_ effect: inout Effect) -> Bool {
        guard context.inReducer, !context.reducerEffectReported else {
            return checkEffectParts(&effect)
        }
        error("effects are not allowed in a reducer; reducers are pure", at: effect.location)
        let saved = context
        defer { context = saved }
        context.reducerEffectReported = true
        return checkEffectParts(&effect)
    }

    /// Checks an optional expression in place; returns whether it changed.
    private mutating func checkExpr(_ expr: inout Expr?) -> Bool {
        guard var inner = expr, checkExpr(&inner) else { return false }
        expr = inner
        return true
    }

    /// Each case takes its parts out with a `guard case` (see ``checkExpr(_:)`` for why not
    /// with the `switch`) and rebuilds the effect only if one of them changed: a `call` whose
    /// callee was resolved, or what holds one.
    private mutating func checkEffectParts(_ effect: inout Effect) -> Bool {
        switch effect {
        case .take:
            // A literal that is no pattern fails whenever it runs (a warning, as for `cancel`).
            if case .take(.expr(.literal(let value, let at)), _, _) = effect {
                switch value {
                case .string(let type): warnIfNoPersistenceAction(type, at: at)
                case .list: break
                default:
                    warning(
                        "take needs a channel, a type pattern or a list of them, got \(value.kindName): "
                            + "this fails whenever it runs", at: at)
                }
            }
            guard case .take(var pattern, var condition, let location) = effect else { return false }
            var changed = checkPattern(&pattern)
            if var inner = condition, checkWhereCondition(&inner) {
                condition = inner
                changed = true
            }
            guard changed else { return false }
            effect = .take(pattern, where: condition, location)

        case .put:
            guard case .put(var first, var second, let location) = effect else { return false }
            // `put "a" { type: "b" }`: the run would fail; a literal payload is known now.
            if case .literal(.string(let type), _) = first, case .record(let fields, let at)? = second,
                fields.contains(where: { $0.key == "type" })
            {
                error(
                    "the payload of put \"\(type)\" must not hold 'type'; to put a whole action, write put { type: …, … }",
                    at: at)
            }
            // `put "job" 5`: a payload that is no record fails whenever it runs.
            if case .literal(.string(let type), _) = first, case .literal(let payload, let at)? = second {
                warnOfPayload(payload, type: type, at: at)
            }
            // A literal that is no action, type or channel fails whenever it runs (a warning, as
            // for `cancel`).
            if case .literal(let value, let at) = first {
                switch value {
                case .string(let type): warnIfNoPersistenceAction(type, at: at)
                case .record: break
                default:
                    let needs = second == nil ? "an action" : "an action type or a channel first"
                    warning("put needs \(needs), got \(value.kindName): this fails whenever it runs", at: at)
                }
            }
            // `put ch` with `ch` a channel: the value to put is missing.
            if second == nil, case .variable(let v) = first, let i = scopes.lookup(nameID(of: v)),
                scopes.entry(at: i).holdsChannel
            {
                warning(
                    "'\(v.name)' is a channel: put \(v.name) VALUE puts a value into it; this fails whenever it runs",
                    at: v.location)
            }
            let firstChanged = checkExpr(&first)
            guard checkExpr(&second) || firstChanged else { return false }
            effect = .put(first, second, location)

        case .select:
            guard case .select(var expr, let location) = effect else { return false }
            let saved = context
            context.stateReadable = true
            let changed = checkExpr(&expr)
            context = saved
            guard changed else { return false }
            effect = .select(expr, location)

        case .call:
            guard case .call(let callee, var arguments, let location) = effect else { return false }
            let resolved = resolveCallee(callee, argumentCount: arguments.count)
            let argumentsChanged = checkEach(&arguments)
            guard argumentsChanged || !Self.isSame(resolved, callee) else { return false }
            effect = .call(resolved, arguments, location)

        case .fork:
            guard case .fork(var body, let location) = effect, checkTaskBody(&body) else { return false }
            effect = .fork(body, location)

        case .spawn:
            guard case .spawn(var body, let location) = effect, checkTaskBody(&body) else { return false }
            effect = .spawn(body, location)

        case .join:
            // A literal is not a task (a warning, as for `cancel`); a list literal is an expression.
            if case .join(.literal(let value, let at), _) = effect, !Self.isList(value) {
                warning(
                    "join needs a task or a list of tasks, got \(value.kindName): this fails whenever it runs", at: at)
            }
            guard case .join(var expr, let location) = effect, checkExpr(&expr) else { return false }
            effect = .join(expr, location)

        case .cancel:
            // What the run refuses whenever it gets there: a literal, which is not a task. (A
            // warning: a program may mean it, to show what a `catch` gets.)
            if case .cancel(.literal(let value, let at)?, _) = effect {
                warning(
                    "cancel needs a task or a list of tasks, got \(value.kindName): this fails whenever it runs", at: at
                )
            }
            guard case .cancel(var expr, let location) = effect, checkExpr(&expr) else { return false }
            effect = .cancel(expr, location)

        case .close:
            guard case .close(var expr, let location) = effect, checkExpr(&expr) else { return false }
            effect = .close(expr, location)

        case .flush:
            guard case .flush(var expr, let location) = effect, checkExpr(&expr) else { return false }
            effect = .flush(expr, location)

        case .delay:
            guard case .delay(var expr, var value, let location) = effect else { return false }
            // What the run refuses whenever it gets there: a literal that is not a number (a
            // warning, as for `cancel`).
            if case .literal(let duration, let at) = expr {
                switch duration {
                case .int, .double: break
                default:
                    warning(
                        "delay needs a number of milliseconds, got \(duration.kindName): this fails whenever it runs",
                        at: at)
                }
            }
            let durationChanged = checkExpr(&expr)
            guard checkExpr(&value) || durationChanged else { return false }
            effect = .delay(expr, value: value, location)

        case .race:
            if case .race(let entries, let location) = effect, entries.isEmpty {
                warning("a race with no entries gives {} at once (redux-saga's never ends)", at: location)
            }
            guard case .race(var entries, let location) = effect, checkEntries(&entries, in: "race") else {
                return false
            }
            effect = .race(entries, location)

        case .allRecord:
            guard case .allRecord(var entries, let location) = effect, checkEntries(&entries, in: "all") else {
                return false
            }
            effect = .allRecord(entries, location)

        case .allList:
            guard case .allList(var effects, let location) = effect else { return false }
            var changed = false
            for i in effects.indices {
                var inner = effects[i]
                guard checkEffectParts(&inner) else { continue }
                Self.replace(&effects, at: i, with: inner)
                changed = true
            }
            guard changed else { return false }
            effect = .allList(effects, location)

        case .allFor:
            guard case .allFor(var variable, var list, var body, let location) = effect else { return false }
            let listChanged = checkExpr(&list)
            pushScope()
            let planned = variable.slot
            declare(&variable, isMutable: false)
            let bodyChanged = checkEffectParts(&body)
            popScope()
            guard listChanged || bodyChanged || variable.slot != planned else { return false }
            effect = .allFor(variable, list, body, location)

        case .retry:
            guard case .retry(var count, var wait, var body, var loop, let location) = effect else { return false }
            var changed = checkExpr(&count)
            // What the run would refuse at once: a literal count below 1.
            if let (n, at) = Self.literalInt(count), n < 1 {
                error("retry needs a whole number of at least 1, got \(n)", at: at)
            }
            if var checked = wait, checkWait(&checked) {
                wait = checked
                changed = true
            }
            if checkEffectParts(&body) { changed = true }
            // The loop's hidden variables, in the retry's task, after the effect's own.
            let first = nextSlot
            nextSlot += RetryLoop.hiddenCount
            noteSlot(nextSlot - 1)
            if loop.firstSlot != first { changed = true }
            // A check for diagnostics alone (``deferredLookups``) makes no program to run.
            if deferredLookups == nil {
                loop = RetryLoop(retrying: body, wait: wait, firstSlot: first, at: location)
                changed = true
            } else {
                loop.firstSlot = first
            }
            guard changed else { return false }
            effect = .retry(count: count, wait: wait, body, loop, location)

        case .channel:
            if case .channel(.literal(let size, let at)?, _, _) = effect, !Self.isInt(size) {
                warning(
                    "a buffer size is a whole number of messages, got \(size.kindName): this fails whenever it runs",
                    at: at)
            }
            if case .channel(let size?, _, _) = effect, let (n, at) = Self.literalInt(size), n < 0 {
                warning("a buffer size is a whole number ≥ 0, got \(n): this fails whenever it runs", at: at)
            }
            guard case .channel(var buffer, let bufferKind, let location) = effect, checkExpr(&buffer) else {
                return false
            }
            effect = .channel(buffer: buffer, bufferKind, location)

        case .actionChannel:
            guard case .actionChannel(var pattern, var buffer, let bufferKind, let location) = effect else {
                return false
            }
            let patternChanged = checkPattern(&pattern)
            guard checkExpr(&buffer) || patternChanged else { return false }
            effect = .actionChannel(pattern, buffer: buffer, bufferKind, location)

        case .watcher:
            guard case .watcher(var watcher) = effect, checkWatcher(&watcher) else { return false }
            effect = .watcher(watcher)
        }
        return true
    }

    /// Whether two callees are the same resolution (a resolved callee is never `.named`).
    private static func isSame(_ a: Callee, _ b: Callee) -> Bool {
        switch (a, b) {
        case (.named(let x, _), .named(let y, _)), (.host(let x, _), .host(let y, _)): return x == y
        case (.function(let x, _), .function(let y, _)): return x == y
        default: return false
        }
    }

    /// A pattern is a plain expression (or `*`), evaluated where it stands; returns whether
    /// it changed.
    @discardableResult
    mutating func checkPattern(_ pattern: inout Pattern) -> Bool {
        guard case .expr(var expr) = pattern, checkExpr(&expr) else { return false }
        pattern = .expr(expr)
        return true
    }

    /// The condition of `take … where`, the one place `it` is valid; returns whether it changed.
    private mutating func checkWhereCondition(_ condition: inout Expr) -> Bool {
        let saved = context
        defer { context = saved }
        context.itAllowed = true
        warnIfNotBool(condition)
        return checkExpr(&condition)
    }

    /// The entries of `race { }` or `all { }`: keys must differ, since the result is a record.
    ///
    /// Returns whether any changed.
    private mutating func checkEntries(_ entries: inout [EffectEntry], in what: String) -> Bool {
        var seen: Set<String> = []
        var changed = false
        for i in entries.indices {
            if !seen.insert(entries[i].key).inserted {
                error("duplicate key '\(entries[i].key)' in \(what)", at: entries[i].effect.location)
            }
            var entry = entries[i]
            guard checkEffectParts(&entry.effect) else { continue }
            Self.replace(&entries, at: i, with: entry)
            changed = true
        }
        return changed
    }

    /// What `fork` or `spawn` runs: a callee, or a block that is a task body of its own.
    ///
    /// Returns whether it changed.
    private mutating func checkTaskBody(_ body: inout TaskBody) -> Bool {
        switch body {
        case .call:
            guard case .call(let callee, var arguments) = body else { return false }
            let resolved = resolveCallee(callee, argumentCount: arguments.count)
            let argumentsChanged = checkEach(&arguments)
            guard argumentsChanged || !Self.isSame(resolved, callee) else { return false }
            body = .call(resolved, arguments)
        case .block:
            guard case .block(var block) = body else { return false }
            let saved = context
            defer { context = saved }
            enterTaskBody(.fork)
            let outerHighest = highestSlotInTask
            let firstLocal = nextSlot
            highestSlotInTask = -1
            var changed = false
            let captured = capturedSlots(below: firstLocal) { changed = $0.checkBlock(&block) }
            if block.capturedSlots != captured {
                block.capturedSlots = captured
                changed = true
            }
            let size = Int32(clamping: highestSlotInTask + 1)
            // What the block reads of the frame around it, the enclosing task must hold too;
            // its own variables (from `firstLocal` on) it need not.
            highestSlotInTask = max(outerHighest, min(highestSlotInTask, firstLocal - 1))
            if block.frameSize != size {
                block.frameSize = size
                changed = true
            }
            guard changed else { return false }
            body = .block(block)
        }
        return true
    }

    /// The wait of `retry`, in place; returns whether it changed.
    private mutating func checkWait(_ wait: inout RetryWait) -> Bool {
        switch wait {
        case .delay:
            guard case .delay(var expr) = wait, checkExpr(&expr) else { return false }
            wait = .delay(expr)
        case .backoff:
            guard case .backoff(var expr) = wait, checkExpr(&expr) else { return false }
            wait = .backoff(expr)
        }
        return true
    }

    /// A watcher, whose loop (``Watcher/loop``) is built from it once checked.
    ///
    /// Its duration and pattern are evaluated in the enclosing scope; its binding is visible
    /// only in its body, which is a task body of its own.
    ///
    /// Returns whether it changed: always, when its loop is built.
    private mutating func checkWatcher(_ watcher: inout Watcher) -> Bool {
        var changed = checkExpr(&watcher.duration)
        if checkPattern(&watcher.pattern) { changed = true }
        // The loop's hidden variable, in the watcher's task, before the binding.
        if WatcherLoop.hasHiddenVariable(watcher.kind) {
            if watcher.hiddenSlot != nextSlot { changed = true }
            watcher.hiddenSlot = nextSlot
            nextSlot += 1
            noteSlot(watcher.hiddenSlot)
        }
        let saved = context
        defer { context = saved }
        enterTaskBody(.watcher)
        pushScope()
        defer { popScope() }
        let planned = watcher.binding.slot
        declare(&watcher.binding, isMutable: false)
        if watcher.binding.slot != planned { changed = true }
        let captured = capturedSlots(below: nextSlot) { if $0.checkBlock(&watcher.body) { changed = true } }
        if watcher.body.capturedSlots != captured {
            watcher.body.capturedSlots = captured
            changed = true
        }
        // A check for diagnostics alone (``deferredLookups``) makes no program to run.
        guard deferredLookups == nil else { return changed }
        watcher.loop = WatcherLoop.loop(of: watcher)
        return true
    }

    /// Resolves what `call`, `fork` or `spawn` names: a program function (whose arity must
    /// match) or a host function.
    ///
    /// A callee the parser planned (``SourceUnit/calleesArePlanned``) is resolved as the name
    /// of the function it planned; it stays as it is when that is what the name resolves to.
    ///
    /// While the program's names are not all known (``deferredLookups``), the callee is kept
    /// as it is and resolved later.
    mutating func resolveCallee(_ callee: Callee, argumentCount: Int) -> Callee {
        if deferredLookups != nil {
            if case .host = callee { return callee }
            deferredLookups?.append(
                DeferredLookup(.callee(callee, argumentCount: argumentCount), at: diagnostics.count))
            return callee
        }
        let name: String
        let location: SourceLocation
        switch callee {
        case .named(let named, let at):
            name = named
            location = at
        case .function(let planned, let at):
            guard let offset = plannedCalleeOffset, functions.indices.contains(offset + planned) else { return callee }
            // When the planned function is the first of its name in the program, it is what
            // the name resolves to: with the right number of arguments, the callee is resolved
            // without looking the name up, a look-up that the calls of every piece of a large
            // file after the first would otherwise pay. It is kept as it is when the parser
            // counted the functions before the unit right: otherwise the call and each node
            // around it up to its block are made again.
            let function = functions[offset + planned]
            if function.ownsItsName, function.arity == argumentCount {
                return offset == 0 ? callee : .function(offset + planned, at)
            }
            name = function.name
            location = at
        case .host:
            return callee
        }
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
            if let declared = externs.first(where: { $0.name == name }), declared.parameters.count != argumentCount {
                error(
                    "'\(name)' takes \(Self.count(declared.parameters.count, "argument")) but "
                        + "\(Self.count(argumentCount, "was", plural: "were")) given",
                    at: location, note: ("'\(name)' declared here", declared.location))
            }
            hostCallees.insert(name)
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
            declaredNames.forEachFunctionName { candidates.insert($0) }
            var hint = Suggestions.didYouMean(name, in: candidates)
            if hint.isEmpty, name.contains(".") {
                // `call api.fetchUser(1)`: a host function nobody declared.
                hint = "; declare a host function with 'extern func \(name)(…)'"
            }
            error("unknown function '\(name)'\(hint)", at: location)
        }
        return callee
    }

    /// `"1 argument"`, `"2 arguments"`; with `plural`, `"1 was"`, `"3 were"`.
    static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        if let plural { return "\(n) \(n == 1 ? singular : plural)" }
        return "\(n) \(singular)\(n == 1 ? "" : "s")"
    }

    /// Warns of a literal payload of `put "type" …` that is no record: the put fails whenever
    /// it runs.
    @inline(never)
    private mutating func warnOfPayload(_ payload: Value, type: String, at: SourceLocation) {
        switch payload {
        case .record: return
        default:
            warning(
                "the payload of put \"\(type)\" must be a record, got \(payload.kindName): this fails whenever it runs; "
                    + "write put \"\(type)\" { value: \(payload.canonicalJSON) }",
                at: at)
        }
    }
}
