// Effects and watchers (see “Effects” and “Watchers” in Sagas/README.md): take, put, select,
// call, fork, spawn, join, cancel, delay, race, all, retry, channel, actionChannel; every,
// latest, leading, throttle, debounce.

import SagaCore

extension Parser {
    /// Whether the current token is `close` or `flush` with an operand after it on its line
    /// (a name, a literal): the effect `close CH` or `flush CH`. (They are names anywhere else,
    /// so a program that has a variable named `close` keeps it.)
    var isChannelWordEffect: Bool {
        guard kind == .identifier, window[pos + 1].line == current.line else { return false }
        switch nextKind {
        case .identifier, .number, .string, .stringHead, .kwState, .kwIt, .kwTrue, .kwFalse, .kwNull: break
        default: return false
        }
        let word = text(current)
        return word == "close" || word == "flush"
    }

    /// `close CH` or `flush CH`; the current token is the word.
    mutating func parseChannelWordEffect() throws -> Effect {
        let word = advance()
        let at = location(word)
        let channel = try parseExpression()
        return text(word) == "close" ? .close(channel, at) : .flush(channel, at)
    }

    /// An effect or a watcher (a watcher is the effect ``Effect/watcher(_:)``); `after` says
    /// what it follows, for the message when there is none.
    ///
    /// Its frame is kept small (the message is made out of line): effects nest through it, a
    /// `race` in a `race`, as deep as the parser's nesting limit.
    mutating func parseAnyEffect(after: StaticString? = nil) throws -> Effect {
        if kind.isWatcherKeyword { return .watcher(try parseWatcher()) }
        if isChannelWordEffect { return try parseChannelWordEffect() }
        guard kind.isEffectKeyword else { throw noEffect(after: after) }
        return try parseEffect()
    }

    /// The error for a token that is not an effect where one must be: "after X", and the
    /// effect a misspelt word is closest to.
    @inline(never)
    private mutating func noEffect(after: StaticString?) -> ParseError {
        if kind == .identifier, nextKind == .leftParen {
            // `race { a: f() }`: a function written as an expression.
            return fail("'\(text(current))' is not an effect; to run a function, write 'call \(text(current))(…)'")
        }
        var message = "expected an effect (take, put, call, delay, …) \(after.map { "\($0)" } ?? afterPrevious), "
        message += "found \(found)"
        if kind == .identifier, let keyword = Suggestions.closest(to: text(current), in: Parser.statementKeywords) {
            message += "; did you mean '\(keyword)'?"
        }
        return fail(message)
    }

    /// `retry N [delay D | backoff D] EFFECT`, after `retry`: out of ``parseEffect()``, whose
    /// frame effects nest through.
    @inline(never)
    private mutating func parseRetry(at: SourceLocation) throws -> Effect {
        // `retry call f()`: the effect where the count goes.
        if kind.isEffectKeyword {
            throw fail("expected the number of attempts after 'retry' (retry 3 call f()), found \(found)")
        }
        let count = try parseExpression()
        var wait: RetryWait?
        var options: StaticString = "after 'retry N'"
        if match(.kwDelay) {
            if kind.isEffectKeyword {
                throw fail(
                    "expected the time between attempts after 'retry N delay' (retry 3 delay 1s …), found \(found)")
            }
            wait = .delay(try parseExpression())
            options = "after 'retry N delay D'"
        } else if match(.kwBackoff) {
            if kind.isEffectKeyword {
                throw fail("expected the first wait after 'retry N backoff' (retry 3 backoff 100ms …), found \(found)")
            }
            wait = .backoff(try parseExpression())
            options = "after 'retry N backoff D'"
        } else if kind == .identifier, let misspelt = misspeltBackoff() {
            throw misspelt
        } else if kind == .number, isOnSameLine {
            throw retryWaitWithoutDelay()
        }
        try enterNesting()
        let effect = try parseAnyEffect(after: options)
        depth -= 1
        // The loop's hidden variables take slots after the effect's, as in the checker.
        var loop = RetryLoop(at: at)
        if plansSlots {
            loop.firstSlot = nextPlannedSlot
            nextPlannedSlot += RetryLoop.hiddenCount
        }
        return .retry(count: count, wait: wait, effect, loop, at)
    }

    /// The error for `retry N backof D`, a misspelt `backoff`; `nil` for a word not close to it.
    @inline(never)
    private mutating func misspeltBackoff() -> ParseError? {
        guard Suggestions.closest(to: text(current), in: ["backoff"]) != nil else { return nil }
        return fail(
            "expected 'delay D', 'backoff D' or an effect after 'retry N', found \(found); did you mean 'backoff'?")
    }

    /// The error for a `race` without its `{`: redux-saga's `race([a, b])` is named here.
    @inline(never)
    private mutating func noRaceEntries() -> ParseError {
        if kind == .leftBracket || kind == .leftParen {
            return fail("a race names its entries: race { a: take \"X\", timeout: delay 1s }, found \(found)")
        }
        return fail("expected '{' after 'race', found \(found)")
    }

    /// An effect; the current token is its keyword.
    mutating func parseEffect() throws -> Effect {
        let keyword = advance()
        let at = location(keyword)
        switch keyword.kind {
        case .kwTake:
            let pattern = try parsePattern(after: "'take'")
            let condition = match(.kwWhere) ? try parseExpression() : nil
            return .take(pattern, where: condition, at)
        case .kwPut:
            let target = try parseExpression()
            // The payload must start on the line of `put`: `put X` + newline has one operand.
            let payload = kind.startsExpression && isOnSameLine ? try parseExpression() : nil
            return .put(target, payload, at)
        case .kwSelect:
            if kind == .leftParen, let error = reduxSagaSelect() { throw error }
            let selector = kind.startsExpression && isOnSameLine ? try parseExpression() : nil
            return .select(selector, at)
        case .kwCall:
            let (callee, arguments) = try parseCallee(after: "call")
            return .call(callee, arguments, at)
        case .kwFork, .kwSpawn:
            let body: TaskBody
            if kind == .leftBrace {
                body = .block(try parseBlock(after: "'\(keyword.kind.text)'"))
            } else {
                let (callee, arguments) = try parseCallee(after: keyword.kind.text)
                body = .call(callee, arguments)
            }
            return keyword.kind == .kwFork ? .fork(body, at) : .spawn(body, at)
        case .kwJoin:
            return .join(try parseExpression(), at)
        case .kwCancel:
            // redux-saga's `cancel()`, which cancels the task it runs in.
            if kind == .leftParen, nextKind == .rightParen {
                throw fail("write 'cancel' to cancel this task, or 'cancel t' for the task t")
            }
            let task = kind.startsExpression && isOnSameLine ? try parseExpression() : nil
            return .cancel(task, at)
        case .kwDelay:
            let duration = try parseExpression()
            let value = kind.startsExpression && isOnSameLine ? try parseExpression() : nil
            return .delay(duration, value: value, at)
        case .kwRace:
            guard kind == .leftBrace else { throw noRaceEntries() }
            return .race(try parseEffectEntries(of: "race"), at)
        case .kwAll:
            return try parseAll(at)
        case .kwRetry:
            return try parseRetry(at: at)
        case .kwChannel:
            if kind == .identifier, isOnSameLine, let named = BufferKind(rawValue: text(current)) {
                throw fail("a buffer kind follows its size: channel buffer N \(named.rawValue)")
            }
            // redux-saga's `channel()` / `channel(buffers.sliding(5))`.
            if kind == .leftParen, isOnSameLine {
                throw fail("channel takes no parentheses: write 'channel', or 'channel buffer N' for a bounded one")
            }
            let (buffer, bufferKind) = try parseBuffer()
            return .channel(buffer: buffer, bufferKind, at)
        case .kwActionChannel:
            let pattern = try parsePattern(after: "'actionChannel'")
            let (buffer, bufferKind) = try parseBuffer()
            return .actionChannel(pattern, buffer: buffer, bufferKind, at)
        default:
            throw fail("expected an effect, found \(describe(keyword))", at: at)
        }
    }

    /// The error for redux-saga's `select(s => s.user)` or `select()`, the current token
    /// being the `(`; `nil` for a parenthesised selector of this language (`select (state.a)`).
    ///
    /// Out of line, so that ``parseEffect()``'s frame stays small.
    @inline(never)
    private mutating func reduxSagaSelect() -> ParseError? {
        if nextKind == .rightParen {
            return fail("select takes no parentheses: write 'select' for the whole state, or 'select state.user'")
        }
        guard nextKind == .identifier || nextKind == .kwState, window[pos + 2].kind == .assign,
            window[pos + 3].kind == .greater
        else { return nil }
        let open = location(current)
        let parameter = nextKind == .kwState ? "state" : text(window[pos + 1])
        for _ in 0..<4 { advance() }
        let reported = diagnostics.count
        let body = try? parseExpression()
        diagnostics.removeLast(diagnostics.count - reported)
        var selector = "state.user"
        if let body, let text = Self.sourceText(of: body),
            text == parameter || text.hasPrefix(parameter + ".") || text.hasPrefix(parameter + "[")
        {
            selector = "state" + text.dropFirst(parameter.count)
        }
        return fail("select takes an expression of the state, not a function: write 'select \(selector)'", at: open)
    }

    /// A channel's `buffer N [KIND]`, if there is one: its size and kind (`dropping` when none
    /// is named); with no `buffer`, an unbounded (`expanding`) one.
    mutating func parseBuffer() throws -> (Expr?, BufferKind) {
        guard match(.kwBuffer) else { return (nil, .expanding) }
        let size = try parseExpression()
        guard kind == .identifier else { return (size, .dropping) }
        let word = text(current)
        guard let named = BufferKind(rawValue: word) else {
            let kinds = BufferKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("unknown buffer kind '\(word)'; the kinds are \(kinds)")
        }
        advance()
        return (size, named)
    }

    /// `all { k: E, … }`, `all [E, …]` or `all for x in LIST { E }`.
    mutating func parseAll(_ at: SourceLocation) throws -> Effect {
        switch kind {
        case .leftBrace:
            return .allRecord(try parseEffectEntries(of: "all"), at)
        case .leftBracket:
            try enterNesting()
            advance()
            let saved = ignoreNewlines(true)
            var effects: [Effect] = []
            while kind != .rightBracket {
                effects.append(try parseAnyEffect())
                if !match(.comma) {
                    guard kind == .rightBracket else { throw fail("expected ',' or ']' in 'all' list, found \(found)") }
                }
            }
            ignoresNewlines = saved
            advance()
            depth -= 1
            return .allList(effects, at)
        case .kwFor:
            advance()
            var variable = try expectVariable("expected a variable after 'all for'")
            try expect(.kwIn, "expected 'in' after the variable of 'all for'")
            let list = try parseExpression()
            planScopeOpen()
            planDeclaration(of: &variable)
            try enterNesting()
            if kind == .newline, nextKind == .leftBrace { step() }
            try expect(.leftBrace, "expected '{' after the list of 'all for'")
            let saved = ignoreNewlines(true)
            let effect = try parseAnyEffect()
            planScopeClose()
            ignoresNewlines = saved
            if kind == .newline, nextKind == .rightBrace { step() }
            try expect(.rightBrace, "expected '}' after the effect of 'all for'")
            depth -= 1
            return .allFor(variable, list, effect, at)
        default:
            throw fail("expected '{', '[' or 'for' after 'all', found \(found)")
        }
    }

    /// The error for an entry of `race` or `all` written without its name, as redux-saga's
    /// `race([take(…), …])` has them (`race { take "a", … }`); `nil` when `key` is no effect's
    /// keyword.
    @inline(never)
    private mutating func unnamedEntry(_ key: String, of owner: String) -> ParseError? {
        let effects: Set<String> = ["take", "put", "call", "delay", "select", "fork", "spawn", "join", "race", "all"]
        guard effects.contains(key) else { return nil }
        return fail("'\(owner)' names its entries, as in \(owner) { a: take \"X\", timeout: delay 1s }")
    }

    /// `{ key: EFFECT, "key": EFFECT, }` of `race` and `all`; newlines do not matter inside.
    mutating func parseEffectEntries(of owner: String) throws -> [EffectEntry] {
        try enterNesting()
        advance()
        let saved = ignoreNewlines(true)
        var entries: [EffectEntry] = []
        while kind != .rightBrace {
            let key = try parseKey(in: "'\(owner)'")
            if kind != .colon, let error = unnamedEntry(key, of: owner) { throw error }
            try expect(.colon, "expected ':' after key '\(key)' in '\(owner)'")
            entries.append(EffectEntry(key: key, effect: try parseAnyEffect()))
            // A comma, or a new line before the next `key:`, separates the entries.
            if !match(.comma) {
                guard kind == .rightBrace || startsEntryOnANewLine else {
                    throw fail("expected ',' or '}' in '\(owner)', found \(found)")
                }
            }
        }
        ignoresNewlines = saved
        advance()
        depth -= 1
        return entries
    }

    /// The error for redux-saga's `call(fn, a, b)` after `keyword`: the call to write, with
    /// the function and arguments as written where they are names and literals.
    @inline(never)
    private mutating func reduxSagaCall(_ keyword: String) -> ParseError {
        let open = here
        var suggestion = "\(keyword) fn(a, b)"
        advance()
        if kind == .identifier, let first = try? expectName(""), let name = try? parseDottedRest(of: text(first)) {
            var arguments: [String] = []
            while match(.comma), kind != .rightParen, let argument = try? parseExpression() {
                arguments.append(Self.sourceText(of: argument) ?? "…")
            }
            suggestion = "\(keyword) \(name)(\(arguments.joined(separator: ", ")))"
        }
        return fail("a function and its arguments follow '\(keyword)' as a call: write '\(suggestion)'", at: open)
    }

    /// A name, a chain of members, a literal, or a list or record of them, as written; `nil`
    /// for another expression.
    static func sourceText(of expr: Expr) -> String? {
        switch expr {
        case .variable(let v): return v.name
        case .literal(let value, _): return value.canonicalJSON
        case .state: return "state"
        case .it: return "it"
        case .member(let base, let name, _): return sourceText(of: base).map { "\($0).\(name)" }
        case .index(let base, let index, _):
            guard let base = sourceText(of: base), let index = sourceText(of: index) else { return nil }
            return "\(base)[\(index)]"
        case .list(let items, _):
            let texts = items.map { sourceText(of: $0) ?? "…" }
            return "[\(texts.joined(separator: ", "))]"
        case .record(let fields, _):
            if fields.isEmpty { return "{}" }
            let texts = fields.map { "\($0.key): \(sourceText(of: $0.value) ?? "…")" }
            return "{ \(texts.joined(separator: ", ")) }"
        default: return nil
        }
    }

    /// A duration as the source writes it: a whole number of milliseconds (a literal such as
    /// `300` or `300ms`) as `300ms`, another expression as ``sourceText(of:)`` gives it.
    static func durationText(of expr: Expr) -> String? {
        if case .literal(.int(let ms), _) = expr { return "\(ms)ms" }
        return sourceText(of: expr)
    }

    /// The error for redux-saga's `retry(3, 1000, fn)` written `retry 3 1000 …`: the wait
    /// follows `delay`.
    ///
    /// Out of line, so that the frames of the parser's recursion stay small.
    @inline(never)
    private mutating func retryWaitWithoutDelay() -> ParseError {
        fail("the time between attempts follows 'delay': write 'retry N delay \(current.number.canonicalJSON) …'")
    }

    /// The error for `put(a, b)` or `log(a, b)`, operands written as a call's arguments, or
    /// redux-saga's `put({ type: … })`, with the statement to write (`put "x" { a: 1 }`,
    /// `log "a \(i)"`); `first` is the first operand, read, and a comma or the closing
    /// parenthesis is next.
    @inline(never)
    mutating func parenthesizedOperands(after keyword: TokenKind, first: Expr, at open: SourceLocation) -> ParseError {
        var operands = [first]
        let reported = diagnostics.count
        while match(.comma), kind != .rightParen, let operand = try? parseExpression() { operands.append(operand) }
        // Only this error is told: the operands' own are of a statement written another way.
        diagnostics.removeLast(diagnostics.count - reported)
        let suggestion: String
        if keyword == .kwLog {
            // `log("a", i)`: one string, with the others interpolated.
            let parts = operands.map { operand -> String in
                if case .literal(.string(let s), _) = operand { return s }
                return "\\(\(Self.sourceText(of: operand) ?? "…"))"
            }
            suggestion = "log \"\(parts.joined(separator: " "))\""
        } else if keyword == .kwDebounce || keyword == .kwThrottle, operands.count >= 3 {
            // redux-saga's `debounce(300, "type", worker, …)`: the wait, the pattern, the saga
            // (the first two in either order, as a newcomer may have them).
            let waitFirst: Bool
            if case .literal(.string, _) = operands[0] { waitFirst = false } else { waitFirst = true }
            let (waitOperand, pattern) = waitFirst ? (operands[0], operands[1]) : (operands[1], operands[0])
            let wait = Self.durationText(of: waitOperand) ?? "100ms"
            let arguments = (["a"] + operands.dropFirst(3).map { Self.sourceText(of: $0) ?? "…" })
                .joined(separator: ", ")
            suggestion =
                "\(keyword.text) \(wait) \(Self.sourceText(of: pattern) ?? "\"type\"") as a { "
                + "call \(Self.sourceText(of: operands[2]) ?? "worker")(\(arguments)) }"
        } else if keyword == .kwActionChannel {
            // redux-saga's `actionChannel("type", buffers.sliding(5))`.
            suggestion = "actionChannel \(Self.sourceText(of: first) ?? "\"type\"") buffer N KIND"
        } else if keyword == .kwRetry, operands.count >= 3 {
            // redux-saga's `retry(3, 1000, fn, a)`: tries, milliseconds between them, the call.
            let wait = Self.durationText(of: operands[1]) ?? "…"
            let arguments = operands.dropFirst(3).map { Self.sourceText(of: $0) ?? "…" }.joined(separator: ", ")
            let callee = Self.sourceText(of: operands[2]) ?? "f"
            suggestion = "retry \(Self.sourceText(of: first) ?? "3") delay \(wait) call \(callee)(\(arguments))"
        } else if operands.count == 1, case .record(let fields, _) = first,
            let typeField = fields.first(where: { $0.key == "type" })
        {
            // `put({ type: "x", id: 1 })`.
            let rest = fields.filter { $0.key != "type" }
            let payload = rest.isEmpty ? "" : " " + (Self.sourceText(of: .record(rest, open)) ?? "{ … }")
            suggestion = "put \(Self.sourceText(of: typeField.value) ?? "\"type\"")\(payload)"
        } else {
            suggestion = "\(keyword.text) " + operands.map { Self.sourceText(of: $0) ?? "…" }.joined(separator: " ")
        }
        return fail("'\(keyword.text)' takes its operands without parentheses: write '\(suggestion)'", at: open)
    }

    /// Whether `expr` is a record literal with a `type` field: redux-saga's action object.
    static func isTypeRecord(_ expr: Expr) -> Bool {
        guard case .record(let fields, _) = expr else { return false }
        return fields.contains { $0.key == "type" }
    }

    /// `name(args)` or `a.b.name(args)` after `call`, `fork` or `spawn`.
    mutating func parseCallee(after keyword: @autoclosure () -> String) throws -> (Callee, [Expr]) {
        // redux-saga's `call(fn, a, b)`.
        if kind == .leftParen { throw reduxSagaCall(keyword()) }
        let first = try expectName("expected a function name or '{' after '\(keyword())'")
        if kind == .leftParen, let planned = plannedCallee(first) {
            return (planned, try parseArguments())
        }
        let name = try parseDottedRest(of: text(first))
        guard kind == .leftParen else {
            throw fail("expected '(' after function name '\(name)', found \(found)")
        }
        return (.named(name, location(first)), try parseArguments())
    }

    /// The `.b.c` parts of a dotted function name (such as `api.fetchUser`), after its first
    /// part.
    mutating func parseDottedRest(of first: String) throws -> String {
        var name = first
        while kind == .dot {
            advance()
            guard kind == .identifier || kind.isKeyword else {
                throw fail("expected a name after '.' in function name '\(name)', found \(found)")
            }
            let part = advance()
            name += "." + (part.kind == .identifier ? text(part) : part.kind.text)
        }
        return name
    }

    /// The error for redux-saga's habit of naming the worker after a watcher's pattern
    /// (`every "x" onX`): the body is a block that binds the action.
    @inline(never)
    private mutating func workerAfterPattern(
        of keyword: CompactToken, _ duration: Expr?, _ pattern: Pattern
    ) -> ParseError {
        let worker = text(current)
        let wait = duration.map { " " + (Self.durationText(of: $0) ?? "100ms") } ?? ""
        let shown: String
        if case .expr(let e) = pattern, let text = Self.sourceText(of: e) { shown = text } else { shown = "*" }
        return fail(
            "expected 'as' after the pattern of '\(keyword.kind.text)', found '\(worker)': a watcher's body is a block "
                + "that names the action: write '\(keyword.kind.text)\(wait) \(shown) as a { call \(worker)(a) }'")
    }

    /// `every P as a { B }`, `throttle D P as a { B }` and their kin.
    mutating func parseWatcher() throws -> Watcher {
        let keyword = advance()
        let watcherKind: Watcher.Kind
        switch keyword.kind {
        case .kwLatest: watcherKind = .latest
        case .kwLeading: watcherKind = .leading
        case .kwThrottle: watcherKind = .throttle
        case .kwDebounce: watcherKind = .debounce
        default: watcherKind = .every
        }
        var duration: Expr?
        if watcherKind == .throttle || watcherKind == .debounce {
            guard kind.startsExpression else {
                throw fail("expected a duration after '\(keyword.kind.text)', found \(found)")
            }
            duration = try parseExpression()
            // `throttle "x" as a`: the pattern taken for the duration.
            if kind == .kwAs {
                throw fail(
                    "expected a pattern after the duration of '\(keyword.kind.text)', found \(found): the duration "
                        + "comes first ('\(keyword.kind.text) 100ms \"type\" as a { … }')")
            }
        }
        let pattern = try parsePattern(after: "'\(keyword.kind.text)'")
        if kind == .identifier, isOnSameLine { throw workerAfterPattern(of: keyword, duration, pattern) }
        try expect(.kwAs, "expected 'as' after the pattern of '\(keyword.kind.text)'")
        var binding = try expectVariable("expected a name for the action after 'as'")
        // The loop's hidden variable takes a slot before the binding, as in the checker.
        var hiddenSlot = -1
        if plansSlots && WatcherLoop.hasHiddenVariable(watcherKind) {
            hiddenSlot = nextPlannedSlot
            nextPlannedSlot += 1
        }
        planScopeOpen()
        planDeclaration(of: &binding)
        let body = try parseBlock(after: "watcher binding")
        planScopeClose()
        var watcher = Watcher(
            kind: watcherKind, duration: duration, pattern: pattern, binding: binding, body: body,
            location: location(keyword))
        watcher.hiddenSlot = hiddenSlot
        return watcher
    }

    /// `*` (every action), or an expression (a string, a list of patterns, a channel…).
    ///
    /// - Parameter what: what precedes the pattern, made only for the error message (see
    ///   ``parseBlock(after:)``).
    /// - Returns: the pattern.
    /// - Throws: ``ParseError`` when no pattern starts here, or its expression does not parse,
    ///   once the error is reported.
    mutating func parsePattern(after what: @autoclosure () -> String) throws -> Pattern {
        if kind == .star {
            let star = advance()
            return .any(location(star))
        }
        guard kind.startsExpression else {
            throw fail("expected a pattern after \(what()), found \(found)")
        }
        return .expr(try parseExpression())
    }
}
