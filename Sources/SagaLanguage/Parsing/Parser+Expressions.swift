// Expressions (see “Expressions” in Sagas/README.md) by precedence climbing: one loop for
// every binary level. Each operator of a chain still makes the tree one level deeper
// (`a + b + c` is `(a + b) + c`), and the tree is walked recursively later, so chain links
// count toward the nesting limit too.

import SagaCore

extension Parser {
    /// A whole expression.
    mutating func parseExpression() throws -> Expr {
        if isSingleTokenPrimary, Parser.binaryOperator(nextKind) == nil {
            // A whole expression of one name, number or string (see ``parseOperand()``).
            return try parsePrimary()
        }
        return try parseBinary(minimumPrecedence: 1)
    }

    /// Whether the current token is a name, number, string or keyword value with no `.`,
    /// `[` or `(` after it: a primary by itself, with no postfix steps. (Where newlines are
    /// skipped, one after it may hide a `.` or an operator: that is left to the full path.)
    @inline(__always)
    var isSingleTokenPrimary: Bool {
        switch kind {
        case .identifier, .number, .string, .kwTrue, .kwFalse, .kwNull, .kwState, .kwCancelled, .kwIt:
            switch nextKind {
            case .dot, .leftBracket, .leftParen: return false
            case .newline: return !ignoresNewlines
            default: return true
            }
        default:
            return false
        }
    }

    /// The operator of a binary token and its precedence (higher binds tighter).
    @inline(__always)
    static func binaryOperator(_ kind: TokenKind) -> (BinaryOperator, Int)? {
        switch kind {
        case .coalesce: return (.coalesce, 1)
        case .or: return (.or, 2)
        case .and: return (.and, 3)
        case .equal: return (.equal, 4)
        case .notEqual: return (.notEqual, 4)
        case .less: return (.less, 5)
        case .lessEqual: return (.lessEqual, 5)
        case .greater: return (.greater, 5)
        case .greaterEqual: return (.greaterEqual, 5)
        case .plus: return (.add, 6)
        case .minus: return (.subtract, 6)
        case .star: return (.multiply, 7)
        case .slash: return (.divide, 7)
        case .percent: return (.remainder, 7)
        default: return nil
        }
    }

    mutating func parseBinary(minimumPrecedence: Int) throws -> Expr {
        var left = try parseOperand()
        var links = 0
        defer { depth -= links }
        while let (op, precedence) = Parser.binaryOperator(kind), precedence >= minimumPrecedence {
            // `throttle 1s * as a`: a `*` with no operand after it is the pattern, not a product.
            if op == .multiply, !nextKind.startsExpression { break }
            links += 1
            try enterNesting()
            advance()
            // A line break after an operator does not end the statement.
            skipNewlines()
            let right = try parseBinary(minimumPrecedence: precedence + 1)
            left = .binary(op, left, right, left.location)
        }
        return left
    }

    /// An operand of a binary operator: a prefix operator and what follows it, or a primary
    /// and its postfix steps.
    ///
    /// A name, number or string with no `.`, `[` or `(` after it, most operands, is parsed as
    /// the primary it is, without going through ``parseUnary()`` and ``parsePostfix()`` to
    /// find out (each a call that would find nothing to do).
    @inline(__always)
    mutating func parseOperand() throws -> Expr {
        isSingleTokenPrimary ? try parsePrimary() : try parseUnary()
    }

    mutating func parseUnary() throws -> Expr {
        let op: UnaryOperator
        switch kind {
        case .minus: op = .negate
        case .not: op = .not
        default: return try parsePostfix()
        }
        let token = advance()
        try enterNesting()
        let operand = try parseUnary()
        depth -= 1
        return .unary(op, operand, location(token))
    }

    /// A primary followed by `.name` and `[index]` steps.
    mutating func parsePostfix() throws -> Expr {
        var expr = try parsePrimary()
        var links = 0
        defer { depth -= links }
        while true {
            switch kind {
            case .dot:
                links += 1
                try enterNesting()
                advance()
                // Keywords are fine as member names: `request.where`, `r.all`.
                guard kind == .identifier || kind.isKeyword else {
                    throw fail("expected a member name after '.', found \(found)")
                }
                let member = advance()
                let name = member.kind == .identifier ? self.name(member) : member.kind.text
                expr = .member(expr, name, expr.location)
            case .leftBracket where isDirectlyAfterPrevious:
                links += 1
                try enterNesting()
                advance()
                let saved = ignoreNewlines(true)
                let index = try parseExpression()
                ignoresNewlines = saved
                try expect(.rightBracket, "expected ']' after index")
                expr = .index(expr, index, expr.location)
            case .leftParen where isDirectlyAfterPrevious:
                throw calledInExpression(expr)
            default:
                return expr
            }
        }
    }

    /// The error for `f(…)` inside an expression, where `f` is not a built-in: redux-saga's
    /// `yield cancelled()`, or a host or saga function called without `call`, named at its
    /// name (`http.get(url)` → `call http.get(…)`).
    ///
    /// Out of line, so that the frames of the parser's recursion stay small.
    @inline(never)
    private mutating func calledInExpression(_ callee: Expr) -> ParseError {
        if case .cancelled = callee {
            return fail("'cancelled' is a value here, not a function: write 'cancelled' without '()'")
        }
        if case .member(let base, let method, _) = callee, let advice = Self.javaScriptMethods[method] {
            let value = Self.dottedName(base) ?? "x"
            return fail(
                "values have no methods: for '\(value).\(method)(…)', \(advice)", at: callee.location)
        }
        if let name = Self.dottedName(callee), name.hasPrefix("console.") {
            return fail(
                "there is no console: write 'log \"…\"', with \\(x) for a value, as in log \"count: \\(n)\"",
                at: callee.location)
        }
        if let name = Self.dottedName(callee), let builtin = Self.javaScriptGlobals[name] {
            return fail("there is no '\(name)': the built-in '\(builtin)' does its work", at: callee.location)
        }
        if let name = Self.dottedName(callee) {
            return fail(
                "'\(name)' is called without 'call': write 'call \(name)(…)'; in an expression only built-ins are called",
                at: callee.location)
        }
        return fail("functions other than built-ins run only through call, fork or spawn")
    }

    /// JavaScript's global functions, with the built-in that does their work here.
    static let javaScriptGlobals = [
        "Object.keys": "keys(r)", "Object.values": "values(r)", "Object.assign": "a + b",
        "JSON.stringify": "json(x)", "JSON.parse": "parseJson(s)", "Math.max": "max(a, b)",
        "Math.min": "min(a, b)", "Math.floor": "floor(x)", "Math.abs": "abs(x)", "Date.now": "now()",
        "Number.parseInt": "int(s)",
    ]

    /// JavaScript's methods of arrays, strings and objects, with what does their work here.
    static let javaScriptMethods = [
        "forEach": "write a loop: for x in xs { … }",
        "map": "write a loop: for x in xs { ys = ys + [f(x)] }",
        "filter": "write a loop: for x in xs { if … { ys = ys + [x] } }",
        "reduce": "write a loop over the list",
        "find": "write a loop over the list",
        "some": "write a loop over the list",
        "push": "write 'xs = xs + [x]'",
        "concat": "write 'xs + ys'",
        "includes": "write 'contains(xs, x)'",
        "indexOf": "write a loop over the list",
        "join": "write 'join(xs, sep)'",
        "split": "write 'split(s, sep)'",
        "slice": "write 'slice(xs, from, to)'",
        "toUpperCase": "write 'upper(s)'",
        "toLowerCase": "write 'lower(s)'",
        "toString": "write 'str(x)'",
        "hasOwnProperty": "write 'has(r, key)'",
        "isRunning": "a task's end is awaited with 'join t'; 'cancel t' stops it",
        "isCancelled": "'cancelled' is true in the finally blocks of a cancelled task",
    ]

    /// `a.b.c` for a variable or a chain of its members; `nil` for any other expression.
    private static func dottedName(_ expr: Expr) -> String? {
        switch expr {
        case .variable(let v): return v.name
        case .member(let base, let name, _): return dottedName(base).map { "\($0).\(name)" }
        default: return nil
        }
    }

    /// `(expr)`; the current token is its `(`, `token`, at `at`.
    ///
    /// Out of line, so that ``parsePrimary()``'s frame, which every level of a nested
    /// expression takes, stays small.
    @inline(never)
    private mutating func parseParenthesized(_ token: CompactToken, at: SourceLocation) throws -> Expr {
        // Right after `put`, `log` or `retry`: operands written as a call's arguments, maybe.
        let statement: Bool
        switch previous.kind {
        case .kwPut, .kwLog, .kwRetry, .kwDebounce, .kwThrottle, .kwActionChannel: statement = isDirectlyAfterPrevious
        default: statement = false
        }
        let keyword = previous.kind
        try enterNesting()
        advance()
        let saved = ignoreNewlines(true)
        let inner = try parseExpression()
        if statement, kind == .comma || (kind == .rightParen && keyword == .kwPut && Self.isTypeRecord(inner)) {
            throw parenthesizedOperands(after: keyword, first: inner, at: at)
        }
        ignoresNewlines = saved
        try expect(.rightParen, "expected ')' to close '(' at \(token.line):\(token.column)")
        depth -= 1
        return inner
    }

    mutating func parsePrimary() throws -> Expr {
        let token = current
        let at = location(token)
        switch token.kind {
        case .number:
            advance()
            return .literal(token.number, at)
        case .string:
            advance()
            return .literal(.string(text(token)), at)
        case .stringHead:
            return try parseInterpolation()
        case .kwTrue:
            advance()
            return .literal(.bool(true), at)
        case .kwFalse:
            advance()
            return .literal(.bool(false), at)
        case .kwNull:
            advance()
            return .literal(.null, at)
        case .kwState:
            advance()
            return .state(at)
        case .kwCancelled:
            advance()
            return .cancelled(at)
        case .kwIt:
            advance()
            return .it(at)
        case .identifier:
            advance()
            if kind == .leftParen, isDirectlyAfterPrevious {
                let name = self.name(token)
                return .builtin(name, try parseArguments(), at)
            }
            var use = variable(token, at: at)
            planUse(of: &use)
            return .variable(use)
        case .leftParen:
            return try parseParenthesized(token, at: at)
        case .leftBracket:
            return try parseList()
        case .leftBrace:
            return try parseRecord()
        default:
            if isJoinCall {
                advance()
                return .builtin("join", try parseArguments(), at)
            }
            if token.kind.isEffectKeyword || token.kind.isWatcherKeyword {
                throw fail(
                    "'\(token.kind.text)' is an effect and cannot be used inside an expression; "
                        + "an effect stands alone or is the whole right side of let, var or '='")
            }
            throw fail("expected expression \(afterPrevious), found \(found)\(habitHint)")
        }
    }

    /// `(a, b)` after a built-in's name; the current token is `(`.
    mutating func parseArguments() throws -> [Expr] {
        try enterNesting()
        let open = advance()
        let saved = ignoreNewlines(true)
        var arguments: [Expr] = []
        arguments.reserveCapacity(Self.listRoom)
        while kind != .rightParen {
            arguments.append(try parseExpression())
            if !match(.comma) {
                guard kind == .rightParen else {
                    throw fail(
                        "expected ',' or ')' in argument list opened at \(open.line):\(open.column), found \(found)")
                }
            }
        }
        ignoresNewlines = saved
        advance()
        depth -= 1
        return arguments
    }

    /// The most elements a list literal, or fields a record literal, may have: a literal longer
    /// than any program is written with would take the compiler many times its size in memory.
    static let maxLiteralCount = 1 << 20

    /// `[a, b,]`; the current token is `[`.
    mutating func parseList() throws -> Expr {
        try enterNesting()
        let open = advance()
        let saved = ignoreNewlines(true)
        var elements: [Expr] = []
        elements.reserveCapacity(Self.listRoom)
        while kind != .rightBracket {
            guard elements.count < Self.maxLiteralCount else {
                throw fail(
                    "a list literal has at most \(Self.maxLiteralCount) elements; build a longer list with range() or +"
                )
            }
            elements.append(try parseExpression())
            if !match(.comma) {
                guard kind == .rightBracket else {
                    throw fail("expected ',' or ']' in list opened at \(open.line):\(open.column), found \(found)")
                }
            }
        }
        ignoresNewlines = saved
        advance()
        depth -= 1
        return .list(elements, location(open))
    }

    /// `{name: v, "any key": v,}`; the current token is `{`.
    mutating func parseRecord() throws -> Expr {
        try enterNesting()
        let open = advance()
        let saved = ignoreNewlines(true)
        var fields: [RecordField] = []
        fields.reserveCapacity(Self.listRoom)
        while kind != .rightBrace {
            guard fields.count < Self.maxLiteralCount else {
                throw fail("a record literal has at most \(Self.maxLiteralCount) fields")
            }
            let key = try parseKey(in: "record literal")
            if kind == .comma || kind == .rightBrace {
                throw fail("a field needs its value: write '\(key): \(key)' (there is no shorthand)")
            }
            try expect(.colon, "expected ':' after field name '\(key)'")
            fields.append(RecordField(key: key, value: try parseExpression()))
            // A comma, or a new line before the next `key:`, separates the fields.
            if !match(.comma) {
                guard kind == .rightBrace || startsEntryOnANewLine else {
                    throw fail(
                        "expected ',' or '}' in record literal opened at \(open.line):\(open.column), found \(found)")
                }
            }
        }
        ignoresNewlines = saved
        advance()
        depth -= 1
        return .record(fields, location(open))
    }

    /// A key of a record, `race` or `all`: a name (keywords too: `{where: …}`) or a plain string.
    mutating func parseKey(in what: String) throws -> String {
        switch kind {
        case .identifier:
            let key = advance()
            return name(key)
        case .string:
            let key = advance()
            return text(key)
        case .stringHead:
            throw fail("a key in \(what) cannot contain interpolation")
        default:
            if kind.isKeyword { return advance().kind.text }
            throw fail("expected a key in \(what), found \(found)\(habitHint)")
        }
    }

    /// `"a \(x) b"`: the lexer gave head, expression tokens, middles, tail.
    mutating func parseInterpolation() throws -> Expr {
        let head = advance()
        var parts: [InterpolationPart] = []
        parts.reserveCapacity(Self.listRoom)
        let headText = text(head)
        if !headText.isEmpty { parts.append(.text(headText)) }
        try enterNesting()
        while true {
            let saved = ignoreNewlines(true)
            if kind == .stringMiddle || kind == .stringTail {
                throw fail("expected expression in string interpolation")
            }
            parts.append(.expr(try parseExpression()))
            ignoresNewlines = saved
            guard kind == .stringMiddle || kind == .stringTail else {
                throw fail("expected ')' to end string interpolation, found \(found)")
            }
            let segment = advance()
            let segmentText = text(segment)
            if !segmentText.isEmpty { parts.append(.text(segmentText)) }
            if segment.kind == .stringTail { break }
        }
        depth -= 1
        return .interpolation(parts, location(head))
    }
}
