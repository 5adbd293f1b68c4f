import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// Names are numbered once per program: the parser stores the numbers in variables, and the
/// checker finds declarations by them.
@Suite("Identifiers are numbered once per program")
struct NameInternerTests {
    @Test func eachNameGetsOneNumberInTheOrderFirstMet() {
        var names = NameInterner()
        let ids = ["a", "bb", "a", "c", "bb"].map { names.intern($0) }
        #expect(ids == [0, 1, 0, 2, 1])
        #expect(names.names == ["a", "bb", "c"])
        var bytes = "bb"
        #expect(bytes.withUTF8 { names.intern($0) } == 1)
        #expect(names.intern("") == 3)
        #expect(names.intern("a_name_longer_than_fifteen_bytes") == 4)
        #expect(names.intern("a_name_longer_than_fifteen_bytes") == 4)
    }

    @Test func numbersStayWhenTheTableGrows() {
        var names = NameInterner()
        let all = (0..<1000).map { "n\($0)" }
        #expect(all.map { names.intern($0) } == (0..<1000).map { Int32($0) })
        #expect(all.reversed().map { names.intern($0) } == (0..<1000).reversed().map { Int32($0) })
        #expect(names.count == 1000)
        #expect(names.name(999) == "n999")
    }

    @Test func theFilesOfAProgramShareOneNumberingOfTheirVariables() throws {
        let sources = [
            "main.saga": "import \"lib.saga\"\nsaga main {\n  let x = 1\n  log x\n}\n",
            "lib.saga": "func g(y, x) { log x }\n",
        ]
        var loader = SourceLoader { path in
            guard let text = sources[(path as NSString).lastPathComponent] else {
                return .failure(.unreadable("no such file"))
            }
            return .success(Array(text.utf8))
        }
        loader.load(path: "main.saga")
        #expect(loader.diagnostics.isEmpty)
        let units = loader.takeUnits()
        var names = loader.takeNames()
        guard case .function(let g) = units[0].declarations.first,
            case .saga(let main) = units[1].declarations.last,
            case .declare(let x, _, _, _) = main.body.statements.first
        else {
            Issue.record("unexpected declarations: \(units.map(\.declarations))")
            return
        }
        // The library is parsed after the file importing it; its `x` is the main file's `x`.
        #expect(g.parameters.map(\.nameID) == [names.intern("y"), x.nameID])
        #expect(names.name(x.nameID) == "x")
    }

    @Test func aVariableWhoseNumberNamesAnotherNameIsFoundByItsName() throws {
        // As if `y` had been numbered by another table than `x`: the same number, 0, for both.
        let at = SourceLocation(line: 1, column: 1)
        let x = Variable(name: "x", nameID: 0, location: at)
        let y = Variable(name: "y", nameID: 0, location: SourceLocation(line: 3, column: 5))
        let body = Block(
            statements: [
                .declare(x, isMutable: false, .expr(.literal(.int(1), at)), at),
                .log(.variable(x), at),
                .log(.variable(y), y.location),
            ], location: at)
        let unit = SourceUnit(file: 0, declarations: [.saga(SagaDecl(name: "main", body: body, location: at))])
        var checker = Checker(hostFunctions: [])
        _ = checker.names.intern("x")
        let program = checker.check(units: [unit], files: [SourceFile(path: "test.saga", text: "")])
        #expect(program == nil)
        #expect(checker.diagnostics == [.error("unknown variable 'y'; did you mean 'x'?", at: y.location)])
    }
}
