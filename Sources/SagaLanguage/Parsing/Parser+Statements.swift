// Blocks and statements (see “Statements” and “Transactions and compensation” in
// Sagas/README.md): let/var/assignment, effects, log, throw, control flow, try/catch/finally,
// transaction and compensate.

import SagaCore

extension Parser {
    /// `{ statements }`.
    ///
    /// Inside, statements end at newlines whatever the context outside.
    ///
    /// - Parameter what: what precedes the block, for "expected '{' after saga name"; made only
    ///   for that message (a caller's `"'\(keyword.kind.text)'"` would cost a search of the
    ///   keyword table and a new string per block).
    /// - Returns: the block and its statements.
    /// - Throws: ``ParseError`` when there is no `{` or the nesting is too deep, once the error
    ///   is reported.
    mutating func parseBlock(after what: @autoclosure () -> String) throws -> Block {
        if kind == .newline, nextKind == .leftBrace { step() }
        guard kind == .leftBrace else { throw noBlock(after: what()) }
        try enterNesting()
        let height = openBrackets.count
        let open = advance()
        endOfLastLine = nil
        planScopeOpen()
        let saved = ignoreNewlines(false)
        var statements: [Stmt] = []
        statements.reserveCapacity(Self.listRoom)
        let savedDepth = depth
        while true {
            var atLineEnd = false
            while kind == .newline || kind == .semicolon {
                if !atLineEnd, kind == .newline {
                    atLineEnd = true
                    endOfLastLine = here
                }
                step()
            }
            if kind == .rightBrace { break }
            if kind == .eof || isAtDeclarationKeyword {
                reportUnclosed(open)
                break
            }
            let openBefore = openBrackets.count
            do {
                statements.append(try parseStatement())
                switch kind {
                case .newline, .semicolon, .rightBrace, .eof: break
                default:
                    if isAtDeclarationKeyword { break }
                    throw noStatementEnd()
                }
            } catch {
                ignoresNewlines = false
                depth = savedDepth
                synchronizeStatement(openBefore: openBefore)
            }
        }
        ignoresNewlines = saved
        if kind == .rightBrace { advance() }
        openBrackets.truncate(to: height)
        depth -= 1
        planScopeClose()
        return Block(statements: statements, location: location(open))
    }

    /// The error for a block's missing `{`, with a hint for `if x = 1 {`, an assignment where a
    /// comparison was meant.
    ///
    /// Out of line, so that the frames of the parser's recursion stay small: deep nesting must
    /// not run out of stack (under AddressSanitizer, whose frames are larger, too).
    @inline(never)
    private mutating func noBlock(after what: String) -> ParseError {
        fail("expected '{' after \(what), found \(found)\(assignHint)")
    }

    /// The error for a statement followed by more than a newline or `;` (out of line, as
    /// ``noBlock(after:)`` is).
    @inline(never)
    private mutating func noStatementEnd() -> ParseError {
        // `log flush ch`: the word was read as a name inside an expression.
        if previous.kind == .identifier, case let word = text(previous), word == "close" || word == "flush" {
            return fail(
                "'\(word)' is an effect and cannot be used inside an expression; "
                    + "an effect stands alone or is the whole right side of let, var or '='",
                at: location(previous))
        }
        // `take "LOGIN" as a`: only a watcher binds its action with `as`.
        if kind == .kwAs, previous.kind == .string || previous.kind == .stringTail {
            return fail(
                "only a watcher binds its action with 'as' (every \"t\" as a { … }); a take gives it: write 'let a = take …'"
            )
        }
        return fail("expected newline or ';' after statement, found \(found)\(assignHint)")
    }

    /// The hint for an `=` where it cannot stand: a JavaScript habit (`=>`, `===`), or else
    /// a comparison written with one `=` (`if x = 1 {`, `take "t" where it.id = id`).
    private var assignHint: String {
        let habit = habitHint
        return habit.isEmpty && kind == .assign ? "; to compare two values, write '=='" : habit
    }

    /// Reports a block that the end of the file or the next declaration leaves open: at the end
    /// of the file, where its last line with code ends, not on the empty line after the file's
    /// last newline (nor twice, for the blocks around it).
    @inline(never)
    private mutating func reportUnclosed(_ open: CompactToken) {
        let at = kind == .eof ? endOfLastLine ?? here : here
        report("expected '}' to close the block opened at \(open.line):\(open.column)", at: at)
    }

    mutating func parseStatement() throws -> Stmt {
        let first = current
        let at = location(first)
        switch first.kind {
        case .kwLet, .kwVar:
            advance()
            let isVar = first.kind == .kwVar
            if kind == .leftBrace || kind == .leftBracket {
                throw fail(
                    "there is no destructuring: write '\(first.kind.text) a = …', then read its parts as 'a.user' or 'a[0]'"
                )
            }
            var name = try expectVariable("expected a variable name after '\(first.kind.text)'")
            try expect(.assign, "expected '=' after variable name")
            let rhs = try parseRhs()
            planDeclaration(of: &name)
            return .declare(name, isMutable: isVar, rhs, at)
        case .kwLog:
            advance()
            return .log(try parseExpression(), at)
        case .kwThrow:
            advance()
            if kind == .identifier, nextKind == .identifier, let error = thrownWithNew() { throw error }
            return .throw(try parseExpression(), at)
        case .kwIf:
            return try parseIf()
        case .kwWhile:
            advance()
            let condition = try parseExpression()
            return .while(condition, try parseBlock(after: "while condition"), at)
        case .kwLoop:
            advance()
            return .loop(try parseBlock(after: "'loop'"), at)
        case .kwFor:
            advance()
            if kind == .leftParen {
                throw fail(
                    "a for loop names its variable and a list: write 'for i in range(n) { … }' or 'for x in xs { … }'")
            }
            var variable = try expectVariable("expected a loop variable after 'for'")
            try expect(.kwIn, "expected 'in' after loop variable")
            let sequence = try parseExpression()
            planScopeOpen()
            planDeclaration(of: &variable)
            let body = try parseBlock(after: "for sequence")
            planScopeClose()
            return .for(variable, sequence, body, at)
        case .kwBreak:
            advance()
            return .break(at)
        case .kwContinue:
            advance()
            return .continue(at)
        case .kwReturn:
            advance()
            // `return call f()`: an effect's value is returned through a variable.
            if (kind.isEffectKeyword || kind.isWatcherKeyword) && isOnSameLine {
                throw fail(
                    "return takes a value, not an effect: write 'let r = \(kind.text) …' and then 'return r'")
            }
            let value = kind.startsExpression && isOnSameLine ? try parseExpression() : nil
            return .return(value, at)
        case .kwTry:
            return try parseTry()
        case .kwTransaction:
            advance()
            return .transaction(try parseBlock(after: "'transaction'"), at)
        case .kwCompensate:
            advance()
            return .compensate(try parseBlock(after: "'compensate'"), at)
        case .kwEvery, .kwLatest, .kwLeading, .kwThrottle, .kwDebounce:
            let watcher = try parseWatcher()
            return .effect(.watcher(watcher), at)
        default:
            if first.kind.isEffectKeyword {
                return .effect(try parseEffect(), at)
            }
            if isChannelWordEffect {
                return .effect(try parseChannelWordEffect(), at)
            }
            return try parseAssignmentOrExpression()
        }
    }

    /// The right side of `let`, `var` and `=`: an effect if it starts with an effect or
    /// watcher keyword, otherwise an expression.
    mutating func parseRhs() throws -> Rhs {
        if isJoinCall {
            // `join(xs, sep)` is the built-in; `join(t)` with one argument is the effect, as a
            // redux-saga user would write it.
            let expr = try parseExpression()
            if case .builtin("join", let args, let loc) = expr, args.count == 1, let task = args.first {
                return .effect(.join(task, loc))
            }
            return .expr(expr)
        }
        if kind.isEffectKeyword || kind.isWatcherKeyword || isChannelWordEffect {
            let effect = try parseAnyEffect()
            if let op = Parser.binaryOperator(kind) {
                // `let x = call f() + 1`: an effect's value is a statement's, not an operand.
                throw fail(
                    "an effect's value cannot be part of an expression: write 'let v = …' with the effect "
                        + "alone, then use v (found '\(op.0.rawValue)' after it)")
            }
            return .effect(effect)
        }
        guard kind.startsExpression else {
            throw fail("expected expression \(afterPrevious)")
        }
        let expr = try parseExpression()
        if let error = misusedName(expr) { throw error }
        return .expr(expr)
    }

    /// The error for a name that stands where an effect was meant, an operand after it on its
    /// line: a misspelled effect (`takee "x"`), redux-saga's watcher helpers (`takeLatest "x"
    /// as a { … }`), a function run without `call` (`fetch "/api"`); `nil` for anything else.
    mutating func misusedName(_ expr: Expr) -> ParseError? {
        // `let a = yield take "x"`: an effect (a keyword) after a word of redux-saga's.
        if case .variable(let v) = expr, let advice = Parser.foreignKeywords[v.name], isOnSameLine,
            kind.startsExpression || kind.isEffectKeyword || kind.isWatcherKeyword
        {
            return fail("there is no '\(v.name)' in a saga; \(advice)", at: v.location)
        }
        guard case .variable(let v) = expr, kind.startsExpression, isOnSameLine else { return nil }
        if let watcher = Parser.reduxSagaHelpers[v.name] {
            return fail(
                "redux-saga's \(v.name) is the watcher '\(watcher)' here: \(watcher) \"type\" as a { … }",
                at: v.location)
        }
        if let keyword = Suggestions.closest(to: v.name, in: Parser.statementKeywords) {
            return fail("unknown effect '\(v.name)'; did you mean '\(keyword)'?", at: v.location)
        }
        return fail(
            "'\(v.name)' is not an effect; to run a function, write 'call \(v.name)(…)'", at: v.location)
    }

    /// `target = …`, or an expression standing alone, which is an error.
    mutating func parseAssignmentOrExpression() throws -> Stmt {
        if let error = javaScriptUpdate() { throw error }
        guard kind.startsExpression else {
            throw fail("expected a statement, found \(found)")
        }
        let startsWithCall = kind == .identifier && nextKind == .leftParen
        let target = try parseExpression()
        if let error = compoundAssignment(to: target) { throw error }
        if kind == .assign {
            advance()
            guard let lvalue = lvalue(from: target) else {
                throw fail("cannot assign to this expression", at: target.location)
            }
            return .assign(lvalue, try parseRhs(), target.location)
        }
        if startsWithCall, case .builtin(let name, _, _) = target {
            if let watcher = Parser.reduxSagaHelpers[name] {
                throw fail(
                    "redux-saga's \(name) is the watcher '\(watcher)' here: \(watcher) \"type\" as a { … }",
                    at: target.location)
            }
            throw fail(
                "expression result unused; only effects can stand alone (to run a function, write 'call \(name)(…)')",
                at: target.location)
        }
        if case .record = target {
            throw fail(
                "a record alone does nothing; a put's payload starts on the line of the put, "
                    + "as in put \"type\" { key: value }",
                at: target.location)
        }
        if case .variable(let v) = target, let advice = Parser.foreignKeywords[v.name] {
            throw fail("there is no '\(v.name)' in a saga; \(advice)", at: target.location)
        }
        if case .variable(let v) = target, let keyword = Suggestions.closest(to: v.name, in: Parser.statementKeywords) {
            throw fail("unknown statement '\(v.name)'; did you mean '\(keyword)'?", at: target.location)
        }
        if let error = misusedName(target) { throw error }
        if case .variable(let v) = target {
            throw fail(
                "'\(v.name)' alone does nothing; to run a function, write 'call \(v.name)()'", at: target.location)
        }
        throw fail("expression result unused; only effects can stand alone", at: target.location)
    }

    /// The error for JavaScript's `++i`, `i++`, `--i`, `i--` or `i *= 2` (and `+=`, `-=`,
    /// `/=`, `%=`) as a statement, naming the variable; `nil` for anything else.
    ///
    /// Out of line, as ``thrownWithNew()`` is.
    @inline(never)
    private mutating func javaScriptUpdate() -> ParseError? {
        let first = current
        let second = window[pos + 1]
        let third = window[pos + 2]
        if first.kind == .plus || first.kind == .minus, second.kind == first.kind, Self.touches(first, second) {
            let name = third.kind == .identifier ? text(third) : "x"
            let sign = first.kind.text
            return fail("there is no '\(sign)\(sign)': write '\(name) = \(name) \(sign) 1'")
        }
        guard first.kind == .identifier, Self.isArithmetic(second.kind), Self.touches(second, third) else { return nil }
        let name = text(first)
        let sign = second.kind.text
        if third.kind == second.kind, second.kind == .plus || second.kind == .minus {
            return fail("there is no '\(sign)\(sign)': write '\(name) = \(name) \(sign) 1'")
        }
        guard third.kind == .assign else { return nil }
        return fail("there is no '\(sign)=': write '\(name) = \(name) \(sign) …'")
    }

    /// The error for JavaScript's `x *= 2` (and `+=`, `-=`, `/=`, `%=`) where the parser
    /// stopped before the operator; `nil` for anything else.
    ///
    /// Out of line, as ``thrownWithNew()`` is.
    @inline(never)
    private mutating func compoundAssignment(to target: Expr) -> ParseError? {
        guard Self.isArithmetic(kind), nextKind == .assign, Self.touches(current, window[pos + 1]) else { return nil }
        let op = kind.text
        let name = Self.sourceText(of: target) ?? "x"
        return fail("there is no '\(op)=': write '\(name) = \(name) \(op) …'")
    }

    /// Whether `kind` is `+`, `-`, `*`, `/` or `%`, which JavaScript also writes as `+=` and the
    /// like.
    private static func isArithmetic(_ kind: TokenKind) -> Bool {
        switch kind {
        case .plus, .minus, .star, .slash, .percent: return true
        default: return false
        }
    }

    /// The error for JavaScript's `throw new Error("…")`, after `throw`; `nil` for another
    /// name.
    ///
    /// Out of line, so that ``parseStatement()``'s frame, which every level of nested blocks
    /// takes, stays small.
    @inline(never)
    private mutating func thrownWithNew() -> ParseError? {
        guard text(current) == "new", isOnSameLine else { return nil }
        return fail(
            "there is no 'new': throw a value, such as 'throw \"message\"' or 'throw { message: \"…\", code: 42 }'")
    }

    /// redux-saga's watcher helpers, written as calls, and the watcher each is here.
    static let reduxSagaHelpers = [
        "takeEvery": "every", "takeLatest": "latest", "takeLeading": "leading",
    ]

    /// Words of JavaScript (and redux-saga's generators) that start no statement here, with
    /// what to write instead.
    static let foreignKeywords = [
        "yield": "write the effect alone, as in 'take \"x\"' or 'let a = take \"x\"'",
        "const": "write 'let' (or 'var' for a variable assigned again)",
        "function": "write 'func name(a, b) { … }' at the top level",
        "switch": "write 'if … { … } else if … { … } else { … }'",
        "do": "write 'loop { … }' and 'break' out of it",
    ]

    /// The keywords a statement starts with, for suggestions when one is misspelled.
    static let statementKeywords = [
        "take", "put", "select", "call", "fork", "spawn", "join", "cancel", "delay", "race", "all", "retry",
        "channel", "actionChannel", "log", "throw", "every", "latest", "leading", "throttle", "debounce", "let",
        "var", "if", "while", "loop", "for", "return", "try", "transaction", "compensate", "break", "continue",
    ]

    /// A variable or `state`, then `.name` and `[expr]` steps; `nil` for anything else.
    func lvalue(from expr: Expr) -> LValue? {
        var steps: [LValue.Step] = []
        var node = expr
        while true {
            switch node {
            case .variable(let v):
                return LValue(root: .variable(v), path: steps.reversed())
            case .state(let l):
                return LValue(root: .state(l), path: steps.reversed())
            case .member(let base, let name, _):
                steps.append(.member(name))
                node = base
            case .index(let base, let index, _):
                steps.append(.index(index))
                node = base
            default:
                return nil
            }
        }
    }

    /// `if c { } else if c { } else { }`; `else` may start the next line.
    mutating func parseIf() throws -> Stmt {
        let keyword = advance()
        let at = location(keyword)
        var arms: [ConditionalBlock] = []
        let condition = try parseExpression()
        arms.append(ConditionalBlock(condition: condition, body: try parseBlock(after: "if condition")))
        while matchAcrossNewline(.kwElse) {
            if match(.kwIf) {
                let condition = try parseExpression()
                arms.append(ConditionalBlock(condition: condition, body: try parseBlock(after: "if condition")))
            } else {
                return .if(arms, else: try parseBlock(after: "'else'"), at)
            }
        }
        return .if(arms, else: nil, at)
    }

    /// The error for `catch (e)`, out of line as ``noBlock(after:)`` is.
    @inline(never)
    private mutating func catchInParentheses() -> ParseError {
        fail("expected a name for the error after 'catch', found '('; write 'catch e', without parentheses")
    }

    /// `try { } catch e { } finally { }`, with at least one of catch and finally.
    mutating func parseTry() throws -> Stmt {
        let keyword = advance()
        let at = location(keyword)
        let body = try parseBlock(after: "'try'")
        var catchClause: CatchClause?
        var finallyBlock: Block?
        if matchAcrossNewline(.kwCatch) {
            // `catch (e)`, as JavaScript writes it.
            if kind == .leftParen, nextKind == .identifier { throw catchInParentheses() }
            var binding = try expectVariable("expected a name for the error after 'catch'")
            planScopeOpen()
            planDeclaration(of: &binding)
            catchClause = CatchClause(binding: binding, body: try parseBlock(after: "catch binding"))
            planScopeClose()
        }
        if matchAcrossNewline(.kwFinally) {
            finallyBlock = try parseBlock(after: "'finally'")
        }
        if catchClause == nil, finallyBlock == nil {
            throw fail("expected 'catch' or 'finally' after try block, found \(found)")
        }
        return .try(body, catch: catchClause, finally: finallyBlock, at)
    }
}
