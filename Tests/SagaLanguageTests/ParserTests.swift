import SagaCore
import Testing

@testable import SagaLanguage

/// Parses text for the parser tests and renders the result as S-expressions.
enum ParseFixture {
    static func parse(_ text: String) -> (unit: SourceUnit, diagnostics: [Diagnostic]) {
        Parser.parse(SourceFile(path: "t.saga", text: text), fileIndex: 0)
    }

    /// The whole unit as S-expressions, or the diagnostics if there are any.
    static func dump(_ text: String) -> String {
        let (unit, diagnostics) = parse(text)
        if !diagnostics.isEmpty { return "errors: " + errors(text).joined(separator: " | ") }
        return ASTDump().render(unit)
    }

    /// The statements of `saga s { … }` holding `statements`, rendered and space-separated.
    static func body(_ statements: String) -> String {
        let text = dump("saga s {\n\(statements)\n}")
        guard text.hasPrefix("(saga s {"), text.hasSuffix("})") else { return text }
        return String(text.dropFirst("(saga s {".count).dropLast(2))
    }

    /// The rendering of one expression.
    static func expr(_ source: String) -> String {
        let text = body("let x = \(source)")
        guard text.hasPrefix("(let x "), text.hasSuffix(")") else { return text }
        return String(text.dropFirst("(let x ".count).dropLast())
    }

    /// `line:column: message` for each diagnostic.
    static func errors(_ text: String) -> [String] {
        parse(text).diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }

    /// The first statement of the first saga.
    static func firstStatement(_ text: String) -> Stmt? {
        guard case .saga(let s)? = parse(text).unit.declarations.first else { return nil }
        return s.body.statements.first
    }
}

@Suite struct ParserDeclarationTests {
    @Test func everyDeclarationForm() {
        let source = """
            import "lib/other.saga"
            state { count: 0, "any key": [1, 2], }
            reduce "counter/add" as a { state.count = state.count + a.by }
            reduce * as a {}
            saga main { log 1 }
            func fetch(id, retries) { return id }
            func none() {}
            """
        #expect(
            ParseFixture.dump(source) == """
                (import "lib/other.saga")
                (state (record (count 0) (any key [1 2])))
                (reduce "counter/add" a {(= state.count (+ (. state count) (. a by)))})
                (reduce * a {})
                (saga main {(log 1)})
                (func fetch (id retries) {(return id)})
                (func none () {})
                """)
    }

    @Test func declarationsCarryTheirLocationsAndLeaveNamesUnresolved() {
        let (unit, diagnostics) = ParseFixture.parse("\n  saga main {\n    let x = 1\n    call api.fetchUser(x)\n  }")
        #expect(diagnostics.isEmpty)
        guard case .saga(let saga)? = unit.declarations.first else {
            Issue.record("expected a saga")
            return
        }
        #expect(saga.location == SourceLocation(file: 0, line: 2, column: 3))
        #expect(saga.slotCount == 0)
        #expect(saga.body.location == SourceLocation(file: 0, line: 2, column: 13))
        guard case .declare(let v, false, _, let at) = saga.body.statements[0],
            case .effect(.call(.named(let name, let calleeAt), let args, _), _) = saga.body.statements[1],
            case .variable(let arg)? = args.first
        else {
            Issue.record("unexpected statements")
            return
        }
        #expect(v.slot == -1 && v.name == "x")
        #expect(v.location == SourceLocation(file: 0, line: 3, column: 9))
        #expect(at == SourceLocation(file: 0, line: 3, column: 5))
        #expect(name == "api.fetchUser")
        #expect(calleeAt == SourceLocation(file: 0, line: 4, column: 10))
        #expect(arg.slot == -1)
    }

    @Test func fileIndexGoesIntoEveryLocation() {
        let (unit, _) = Parser.parse(SourceFile(path: "b.saga", text: "saga s { log x }"), fileIndex: 3)
        #expect(unit.file == 3)
        guard case .saga(let s)? = unit.declarations.first, case .log(let e, let at)? = s.body.statements.first else {
            Issue.record("expected a log")
            return
        }
        #expect(at.file == 3)
        #expect(e.location == SourceLocation(file: 3, line: 1, column: 14))
    }

    @Test func theContractExampleParses() {
        let source = """
            state { count: 0 }

            reduce "counter/add" as a { state.count = state.count + a.by }

            saga counter {
              every "counter/request" as req {
                delay 100ms
                put "counter/add" { by: req.by }
                let n = select state.count
                log "count is \\(n)"
              }
            }
            """
        #expect(
            ParseFixture.dump(source) == """
                (state (record (count 0)))
                (reduce "counter/add" a {(= state.count (+ (. state count) (. a by)))})
                (saga counter {(every "counter/request" req {(delay 100) (put "counter/add" (record (by (. req by)))) \
                (let n (select (. state count))) (log (interp "count is " n))})})
                """)
    }
}

@Suite struct ParserExpressionTests {
    @Test func literals() {
        #expect(ParseFixture.expr("null") == "null")
        #expect(ParseFixture.expr("true") == "true")
        #expect(ParseFixture.expr("false") == "false")
        #expect(ParseFixture.expr("42") == "42")
        #expect(ParseFixture.expr("2.5") == "2.5")
        #expect(ParseFixture.expr("1.5s") == "1500")
        #expect(ParseFixture.expr(#""plain""#) == #""plain""#)
        #expect(ParseFixture.expr("[1, [2], []]") == "[1 [2] []]")
        #expect(ParseFixture.expr(#"{a: 1, "b c": 2, where: 3,}"#) == "(record (a 1) (b c 2) (where 3))")
        #expect(ParseFixture.expr("{}") == "(record)")
    }

    @Test func interpolation() {
        #expect(ParseFixture.expr(#""a \(x) b \(y + 1)""#) == #"(interp "a " x " b " (+ y 1))"#)
        #expect(ParseFixture.expr(#""\(x)""#) == "(interp x)")
        #expect(ParseFixture.expr(#""a \(f("x)")) b""#) == #"(interp "a " (f "x)") " b")"#)
        #expect(ParseFixture.expr(#""\("in \(x)")""#) == "(interp (interp \"in \" x))")
    }

    @Test func precedenceLowestToHighest() {
        #expect(
            ParseFixture.expr("a ?? b || c && d == e < f + g * h") == "(?? a (|| b (&& c (== d (< e (+ f (* g h)))))))")
        #expect(
            ParseFixture.expr("a * b + c < d == e && f || g ?? h") == "(?? (|| (&& (== (< (+ (* a b) c) d) e) f) g) h)")
        #expect(ParseFixture.expr("a - b - c") == "(- (- a b) c)")
        #expect(ParseFixture.expr("a / b % c") == "(% (/ a b) c)")
        #expect(ParseFixture.expr("a != b") == "(!= a b)")
        #expect(ParseFixture.expr("a <= b") == "(<= a b)")
        #expect(ParseFixture.expr("a >= b") == "(>= a b)")
        #expect(ParseFixture.expr("a > b") == "(> a b)")
        #expect(ParseFixture.expr("(a + b) * c") == "(* (+ a b) c)")
        #expect(ParseFixture.expr("-a * !b") == "(* (- a) (! b))")
        #expect(ParseFixture.expr("- -a") == "(- (- a))")
    }

    @Test func postfixAndPrimaries() {
        #expect(ParseFixture.expr("a.b[0].c") == "(. ([] (. a b) 0) c)")
        #expect(ParseFixture.expr("len(xs) + max(1, 2)") == "(+ (len xs) (max 1 2))")
        #expect(ParseFixture.expr("now()") == "(now)")
        #expect(ParseFixture.expr("state.users[it.id]") == "([] (. state users) (. it id))")
        #expect(ParseFixture.expr("cancelled") == "cancelled")
        #expect(ParseFixture.expr("r.where.all") == "(. (. r where) all)")
    }

    @Test func onlyBuiltinsCanBeCalledInAnExpression() {
        #expect(
            ParseFixture.errors("saga s { let x = api.fetch(1) }") == [
                "1:18: 'api.fetch' is called without 'call': write 'call api.fetch(…)'; in an expression only built-ins are called"
            ])
        #expect(
            ParseFixture.errors("saga s { let x = 1 + [1][0](2) }") == [
                "1:28: functions other than built-ins run only through call, fork or spawn"
            ])
        #expect(
            ParseFixture.errors("saga s { let x = 1 + take \"a\" }").first?.hasSuffix(
                "'take' is an effect and cannot be used inside an expression; an effect stands alone or is the whole right side of let, var or '='"
            ) == true)
    }

    @Test func newlinesInsideBracketsAndAfterOperatorsDoNotEndAStatement() {
        #expect(ParseFixture.body("let x = (1 +\n 2)\nlog x") == "(let x (+ 1 2)) (log x)")
        #expect(ParseFixture.body("let x = 1 +\n  2") == "(let x (+ 1 2))")
        #expect(ParseFixture.body("let x = [\n 1,\n 2\n]") == "(let x [1 2])")
        #expect(ParseFixture.body("let x = {\n a: 1,\n b:\n 2,\n}\nlog x") == "(let x (record (a 1) (b 2))) (log x)")
        #expect(ParseFixture.body("let x = max(\n1,\n2\n)") == "(let x (max 1 2))")
        #expect(ParseFixture.body("let x = (a\n + b)") == "(let x (+ a b))")
        #expect(ParseFixture.body("let x = [a\n.b, 2\n* 3, c\n]") == "(let x [(. a b) (* 2 3) c])")
        #expect(ParseFixture.body("let x = len(a\n.b\n)") == "(let x (len (. a b)))")
        // Outside brackets a newline ends the statement: `+ 2` alone is not an expression.
        #expect(ParseFixture.errors("saga s {\nlet x = 1\n+ 2\n}") == ["3:1: expected a statement, found '+'"])
    }

    @Test func aBraceAfterAConditionIsTheBlock() {
        #expect(ParseFixture.body("if x { log 1 }") == "(if (x {(log 1)}))")
        #expect(ParseFixture.body("while a.b { log 1 }") == "(while (. a b) {(log 1)})")
        #expect(ParseFixture.body("for k in {a: 1} { log k }") == "(for k (record (a 1)) {(log k)})")
    }
}

@Suite struct ParserJSONTests {
    @Test func theASTAsJSONNamesEveryNodeWithItsLocation() {
        let (unit, _) = ParseFixture.parse("saga main {\n  let a = take \"x\" where it.n > 1\n}")
        #expect(
            astJSON(unit).canonicalJSON == """
                {"declarations":[{"body":{"column":11,"kind":"block","line":1,"statements":[{"column":3,"kind":"let",\
                "line":2,"value":{"column":11,"kind":"take","line":2,"pattern":{"column":16,"kind":"literal","line":2,\
                "value":"x"},"where":{"column":26,"kind":"binary","left":{"column":26,"kind":"member","line":2,\
                "name":"n","object":{"column":26,"kind":"it","line":2}},"line":2,"operator":">","right":{"column":33,\
                "kind":"literal","line":2,"value":1}}},"variable":{"column":7,"kind":"variable","line":2,"name":"a",\
                "slot":-1}}]},"column":1,"kind":"saga","line":1,"name":"main","slotCount":0}],"file":0}
                """)
    }
}
