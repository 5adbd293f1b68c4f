// Top-level declarations (see “Declarations” in Sagas/README.md): import, state, reduce, saga,
// func.

import SagaCore

extension Parser {
    /// Every declaration of the file, recovering after each broken one, each handed to `sink`
    /// with its head (see ``DeclarationHead`` for why they are noted here) as soon as it is
    /// parsed.
    mutating func parseDeclarations<Sink: DeclarationSink>(into sink: inout Sink) {
        while true {
            while kind == .newline || kind == .semicolon { step() }
            if kind == .eof { break }
            let start = pos
            do {
                let declaration = try parseDeclaration()
                let head = DeclarationHead(of: declaration)
                sink.take(declaration, head: head, names: &names)
            } catch {
                ignoresNewlines = false
                depth = 0
                synchronizeDeclaration(startedAt: start)
            }
        }
    }

    mutating func parseDeclaration() throws -> Declaration {
        let keyword = current
        let at = location(keyword)
        switch keyword.kind {
        case .kwImport:
            advance()
            guard kind == .string else {
                if kind == .stringHead { throw fail("an import path cannot contain interpolation") }
                throw fail("expected a file path string after 'import'")
            }
            let path = advance()
            return .import(text(path), at)
        case .kwState:
            advance()
            planTopLevel()
            guard kind == .leftBrace else { throw fail("expected '{' after 'state'") }
            return .state(try parseRecord(), at)
        case .kwReduce:
            advance()
            planTopLevel()
            let pattern = try parsePattern(after: "'reduce'")
            try expect(.kwAs, "expected 'as' after reducer pattern")
            var binding = try expectVariable("expected a name for the action after 'as'")
            planDeclaration(of: &binding)
            let body = try parseBlock(after: "reducer binding")
            return .reducer(ReducerDecl(pattern: pattern, binding: binding, body: body, location: at))
        case .kwSaga:
            advance()
            planTopLevel()
            let name = try expectName("expected saga name after 'saga'")
            let body = try parseBlock(after: "saga name")
            return .saga(SagaDecl(name: text(name), body: body, location: at))
        case .kwExtern:
            advance()
            try expect(.kwFunc, "expected 'func' after 'extern'")
            let first = try expectName("expected function name after 'extern func'")
            let name = try parseDottedRest(of: text(first))
            try expect(.leftParen, "expected '(' after function name")
            let saved = ignoreNewlines(true)
            var parameters: [String] = []
            while kind != .rightParen {
                parameters.append(text(try expectName("expected a parameter name")))
                if !match(.comma) {
                    guard kind == .rightParen else {
                        throw fail("expected ',' or ')' in parameter list, found \(found)")
                    }
                }
            }
            ignoresNewlines = saved
            advance()
            if kind == .leftBrace { throw fail("an extern function has no body: the host provides it") }
            return .extern(ExternDecl(name: name, parameters: parameters, location: at))
        case .kwFunc:
            advance()
            planTopLevel()
            let first = try expectName("expected function name after 'func'")
            let name = try parseDottedRest(of: text(first))
            try expect(.leftParen, "expected '(' after function name")
            let saved = ignoreNewlines(true)
            var parameters: [Variable] = []
            parameters.reserveCapacity(Self.listRoom)
            while kind != .rightParen {
                var parameter = try expectVariable("expected a parameter name")
                planParameter(&parameter)
                parameters.append(parameter)
                if !match(.comma) {
                    guard kind == .rightParen else {
                        throw fail("expected ',' or ')' in parameter list, found \(found)")
                    }
                }
            }
            ignoresNewlines = saved
            advance()
            let body = try parseBlock(after: "function parameters")
            planFunction(named: first, isDotted: name.utf8.count != first.count)
            return .function(FunctionDecl(name: name, parameters: parameters, body: body, location: at))
        default:
            if kind == .identifier, let advice = Self.javaScriptDeclarations[text(current)] {
                throw fail("there is no '\(text(current))' here; \(advice)")
            }
            if kind == .identifier,
                let keyword = Suggestions.closest(
                    to: text(current), in: ["import", "state", "reduce", "saga", "func", "extern"])
            {
                throw fail("unknown declaration '\(text(current))'; did you mean '\(keyword)'?")
            }
            throw fail("expected a declaration (import, state, reduce, saga, func or extern func), found \(found)")
        }
    }

    /// An identifier token; a keyword in its place gets a message saying so.
    ///
    /// Inlined, its errors out of line, as ``expect(_:_:)`` is.
    @inline(__always)
    mutating func expectName(_ message: @autoclosure () -> String) throws -> CompactToken {
        if kind == .identifier { return advance() }
        throw failExpectingName(message())
    }

    /// The error when a name was expected: a keyword in its place is told so.
    @inline(never)
    mutating func failExpectingName(_ message: String) -> ParseError {
        if kind.isKeyword {
            return fail("'\(kind.text)' is a keyword and cannot be used as an identifier")
        }
        return failExpecting(message)
    }

    /// JavaScript's words that start a declaration there, with what to write here.
    static let javaScriptDeclarations = [
        "function": "a saga is 'saga name { … }' and a function 'func name(a, b) { … }'",
        "export": "every declaration of a file is seen by the files that import it: write 'import \"file.saga\"' there",
        "const": "a constant of the program is a function that returns it, or a value in 'state { … }'",
        "let": "a value shared by sagas is kept in 'state { … }' and read with 'select'",
        "var": "a value shared by sagas is kept in 'state { … }' and read with 'select'",
    ]

    /// A variable introduced by `let`, `var`, `for`, `catch`, `as` or a parameter list.
    @inline(__always)
    mutating func expectVariable(_ message: @autoclosure () -> String) throws -> Variable {
        let token = try expectName(message())
        return variable(token, at: location(token))
    }
}
