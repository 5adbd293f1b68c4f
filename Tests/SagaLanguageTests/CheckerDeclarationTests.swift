import SagaCore
import Testing

@testable import SagaLanguage

@Suite("The checker reports duplicate and malformed declarations")
struct CheckerDeclarationTests {
    @Test func aSagaAndAFunctionShareOneNamespace() {
        #expect(
            CheckerTests.diagnostics(
                """
                saga load { }
                func load() { }
                saga load { }
                """) == [
                    "2:1: error: invalid redeclaration of 'load'",
                    "1:1: note: 'load' previously declared here",
                    "3:1: error: invalid redeclaration of 'load'",
                    "1:1: note: 'load' previously declared here",
                ])
    }

    @Test func aProgramHasAtMostOneState() {
        #expect(
            CheckerTests.diagnostics(
                """
                state { a: 1 }
                state { b: 2 }
                """) == [
                    "2:1: error: more than one 'state' declaration; a program has at most one",
                    "1:1: note: first 'state' declared here",
                ])
    }

    @Test func theStateMustBeARecordLiteral() {
        // The parser only builds `state` from a `{`, so the checker's own guard is tested on an
        // AST built by hand, as another front end might produce it.
        let at = SourceLocation(line: 1, column: 7)
        let unit = SourceUnit(
            file: 0,
            declarations: [.state(.list([.literal(.int(1), at)], at), SourceLocation(line: 1, column: 1))])
        var checker = Checker(hostFunctions: [])
        let program = checker.check(units: [unit], files: [SourceFile(path: "test.saga", text: "state [1]")])
        #expect(program == nil)
        #expect(checker.diagnostics == [.error("'state' must be a record literal, as in state { count: 0 }", at: at)])
    }

    @Test func theStateCannotReadVariables() {
        #expect(
            CheckerTests.errors(
                """
                state { count: start }
                """) == ["1:16: error: unknown variable 'start'"])
    }

    @Test func parameterNamesMustDiffer() {
        #expect(
            CheckerTests.diagnostics(
                """
                func f(a, b, a) { }
                """) == [
                    "1:14: error: duplicate parameter name 'a'",
                    "1:8: note: 'a' previously declared here",
                ])
    }

    @Test func keysOfRaceAndAllMustDiffer() {
        #expect(
            CheckerTests.errors(
                """
                saga main {
                  let r = race { a: take "x", a: delay 1s }
                  let s = all { b: take "x", c: take "y", b: take "z" }
                }
                """) == [
                    "2:34: error: duplicate key 'a' in race",
                    "3:46: error: duplicate key 'b' in all",
                ])
    }
}
