import SagaCore
import Testing

@testable import SagaLanguage

@Suite struct ParserRecoveryTests {
    @Test func threeSeparateErrorsGiveThreeDiagnostics() {
        let source = """
            saga first {
              let x =
              log x
            }

            saga second {
              put "a" {x: 1
              log "still parsed"
            }

            func third(a b) {
              log a
            }

            saga fourth { log 1 }
            """
        #expect(
            ParseFixture.errors(source) == [
                "2:10: expected expression after '='",
                "8:3: expected ',' or '}' in record literal opened at 7:11, found 'log'",
                "11:14: expected ',' or ')' in parameter list, found 'b'",
            ])
        // Everything around the mistakes is still there.
        let names = ParseFixture.parse(source).unit.declarations.compactMap { declaration -> String? in
            switch declaration {
            case .saga(let s): return s.name
            default: return nil
            }
        }
        #expect(names == ["first", "second", "fourth"])
    }

    @Test func statementsAfterABrokenOneStillParse() {
        let source = "saga s {\n  let = 1\n  log 2\n  if { }\n  log 3\n}"
        let (unit, diagnostics) = ParseFixture.parse(source)
        #expect(diagnostics.count == 2)
        guard case .saga(let saga)? = unit.declarations.first else {
            Issue.record("expected a saga")
            return
        }
        #expect(ASTDump().render(saga.body) == "{(log 2) (log 3)}")
    }

    /// The items of a list the parser gave up on must not turn up in the next list, in the list
    /// around it, or in the block's statements; nor a broken function's parameters in the next
    /// function's.
    @Test func theItemsOfABrokenListDoNotLandInAnother() {
        let source = """
            saga s {
              log [1, f(2, {a: 3, b: [4, "x\\(5 +)"]}), 6]
              log [7, [f(8, [9])], {c: 10}, "y\\(11)z"]
              let v = [f(10, 11 12), 13]
              log 14
            }
            func f(p, q) { return p }
            func g(r, s t) { return r }
            func h(u) { return u }
            """
        let (unit, diagnostics) = ParseFixture.parse(source)
        #expect(diagnostics.count == 3, "\(diagnostics.map(\.message))")
        var bodies: [String] = []
        var parameters: [[String]] = []
        for declaration in unit.declarations {
            switch declaration {
            case .saga(let saga): bodies.append(ASTDump().render(saga.body))
            case .function(let function): parameters.append(function.parameters.map(\.name))
            default: break
            }
        }
        #expect(bodies == [#"{(log [7 [(f 8 [9])] (record (c 10)) (interp "y" 11 "z")]) (log 14)}"#])
        #expect(parameters == [["p", "q"], ["u"]])
    }

    @Test func anUnclosedBlockEndsAtTheNextDeclaration() {
        let source = "saga a {\n  log 1\n\nsaga b {\n  log 2\n}\n"
        #expect(ParseFixture.errors(source) == ["4:1: expected '}' to close the block opened at 1:8"])
        #expect(ASTDump().render(ParseFixture.parse(source).unit) == "(saga a {(log 1)})\n(saga b {(log 2)})")
    }

    /// A block the file leaves open is reported where the last line with code ends, not on the
    /// empty line after the file's last newline.
    @Test func aBlockLeftOpenAtTheEndOfTheFileIsReportedAtTheEndOfItsLastLine() {
        #expect(
            ParseFixture.errors("saga a {\n  if x {\n    log 1\n") == [
                "3:10: expected '}' to close the block opened at 2:8"
            ])
        #expect(
            ParseFixture.errors("saga a {\n  log 1\n\n\n") == ["2:8: expected '}' to close the block opened at 1:8"])
        #expect(ParseFixture.errors("saga a {\n  log 1") == ["2:8: expected '}' to close the block opened at 1:8"])
        #expect(
            ParseFixture.errors("saga a {\n  log 1\n}\nsaga b {") == [
                "4:9: expected '}' to close the block opened at 4:8"
            ])
        #expect(
            ParseFixture.errors("saga a {\n  log 1 // done\n") == [
                "2:16: expected '}' to close the block opened at 1:8"
            ])
    }

    /// What a JavaScript hand writes by habit gets a hint: `=` where a condition compares,
    /// parentheses around a caught error's name.
    @Test func habitsFromJavaScriptGetAHint() {
        #expect(
            ParseFixture.errors("saga a { if x = 1 { log 1 } }") == [
                "1:15: expected '{' after if condition, found '='; to compare two values, write '=='"
            ])
        #expect(
            ParseFixture.errors("saga a { while x = 1 { log 1 } }") == [
                "1:18: expected '{' after while condition, found '='; to compare two values, write '=='"
            ])
        #expect(
            ParseFixture.errors("saga a { let b = take \"t\" where it.id = 1 }") == [
                "1:39: expected newline or ';' after statement, found '='; to compare two values, write '=='"
            ])
        #expect(
            ParseFixture.errors("saga a { try { log 1 } catch (e) { log e } }") == [
                "1:30: expected a name for the error after 'catch', found '('; write 'catch e', without parentheses"
            ])
    }

    @Test func declarationLevelMistakes() {
        #expect(
            ParseFixture.errors("log 1\nsaga s {}") == [
                "1:1: expected a declaration (import, state, reduce, saga, func or extern func), found 'log'"
            ])
        #expect(ParseFixture.errors("saga {\n}\nsaga b {}") == ["1:6: expected saga name after 'saga', found '{'"])
        #expect(ParseFixture.errors("saga s log 1") == ["1:8: expected '{' after saga name, found 'log'"])
        #expect(ParseFixture.errors("import other") == ["1:8: expected a file path string after 'import'"])
        #expect(ParseFixture.errors("state [1]") == ["1:7: expected '{' after 'state'"])
        #expect(ParseFixture.errors("reduce \"a\" { }") == ["1:12: expected 'as' after reducer pattern, found '{'"])
        #expect(ParseFixture.errors("}\n}\nsaga s {}").count == 1)
    }

    @Test func lexicalErrorsAreNotReportedTwice() {
        #expect(ParseFixture.errors("saga s {\n  let x = 5 @ 3\n  log x\n}") == ["2:13: unexpected character '@'"])
        #expect(ParseFixture.errors("saga s {\n  log \"abc\n  log 2\n}") == ["2:7: unterminated string literal"])
        #expect(
            ParseFixture.errors("saga s {\n  log \"a \\(x\n}") == [
                "2:7: unterminated string literal: the '\\(' at 2:10 has no ')'"
            ])
        // `"\(r.a"`: the quote meant to end the string begins one of its own inside the
        // interpolation; the '\(' without its ')' is the one mistake reported.
        #expect(
            ParseFixture.errors("saga s {\n  log \"\\(r.a\"\n}") == [
                "2:7: unterminated string literal: the '\\(' at 2:8 has no ')'"
            ])
    }

    @Test func aLexicalErrorReportedFarAheadDoesNotHideAnEarlierMistake() {
        // The lexer reports the unterminated string (at its start) only at the line break, far
        // ahead of the parser's mistake: the parser, which lexes many tokens ahead, still
        // reports its own, as when it lexed three tokens ahead and had not seen the other.
        #expect(
            ParseFixture.errors("saga s {\n  log \"a\\(x + + y z w\n}") == [
                "2:7: unterminated string literal: the '\\(' at 2:9 has no ')'",
                "2:15: expected expression after '+', found '+'",
            ])
        // One within three tokens is seen, and the parser keeps quiet.
        #expect(
            ParseFixture.errors("saga s {\n  log \"a\\(x + + y\n}") == [
                "2:7: unterminated string literal: the '\\(' at 2:9 has no ')'"
            ])
        // Hundreds of interpolations closed by one line break: more tokens in one step than the
        // parser's window held at first.
        let open = String(repeating: #""\("#, count: 300)
        #expect(
            ParseFixture.errors("saga s {\n  log \(open)\n}") == [
                "2:7: unterminated string literal: the '\\(' at 2:905 has no ')'", "2:775: \(Parser.tooDeep)",
            ])
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let depth = 10_000
        let parens = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(ParseFixture.errors("saga s { log \(parens) }").map { $0.hasSuffix(Parser.tooDeep) } == [true])
        let lists = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(ParseFixture.errors("saga s { log \(lists) }").count == 1)
        let records = String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(ParseFixture.errors("state \(records)").count == 1)
        let negations = String(repeating: "-", count: depth) + "1"
        #expect(ParseFixture.errors("saga s { log \(negations) }").count == 1)
        let blocks = String(repeating: "loop {\n", count: depth) + String(repeating: "}\n", count: depth)
        let (unit, diagnostics) = ParseFixture.parse("saga s {\n\(blocks)}\nsaga t { log 1 }")
        #expect(diagnostics.map(\.message) == [Parser.tooDeep])
        #expect(unit.declarations.count == 2)
        let strings = String(repeating: #""\("#, count: depth) + String(repeating: #")""#, count: depth)
        #expect(ParseFixture.errors("saga s { log \(strings) }").count == 1)
        let races = String(repeating: "race { a: ", count: depth) + "cancel" + String(repeating: " }", count: depth)
        #expect(ParseFixture.errors("saga s { \(races) }").count == 1)
        // Just under the limit is fine.
        let fine = String(repeating: "(", count: 200) + "1" + String(repeating: ")", count: 200)
        #expect(ParseFixture.errors("saga s { log \(fine) }").isEmpty)
    }

    /// Every prefix of a program and every program with one character deleted parses to
    /// an end, without crashing, and a broken one always has a diagnostic.
    @Test func everyTruncationAndDeletionTerminates() {
        let source = """
            import "x.saga"
            state { a: [1, {b: "c \\(d)"}], }
            reduce "a/*" as a { state.a[0] = a.x ?? -1 }
            saga s {
              let r = race { t: take "a" where it.x > 1, d: delay 1.5s }
              try { call api.f(r, "s") } catch e { log e } finally { if cancelled { log 1 } }
              all for x in xs { fork g(x) }
              throttle 100ms * as a { put "b" {v: a} }
              retry 3 backoff 1s call h()
            }
            func g(x) { transaction { compensate { log x } }; return x }
            """
        #expect(ParseFixture.errors(source).isEmpty)
        let scalars = Array(source.unicodeScalars)
        for end in 0...scalars.count {
            var prefix = String.UnicodeScalarView()
            prefix.append(contentsOf: scalars[0..<end])
            _ = ParseFixture.parse(String(prefix))
        }
        for removed in scalars.indices {
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[0..<removed])
            text.append(contentsOf: scalars[(removed + 1)...])
            let (_, diagnostics) = ParseFixture.parse(String(text))
            // One deletion is one mistake: never a flood of messages.
            #expect(diagnostics.count <= 3, "deleting \(removed): \(diagnostics.map(\.message))")
        }
    }
}
