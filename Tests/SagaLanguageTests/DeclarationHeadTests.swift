import SagaCore
import Testing

@testable import SagaLanguage

/// The parser notes each declaration's head (kind, name, arity, place) as it makes it, so
/// that the checker indexes a program's names without reading its tree back; notes that no
/// longer match the declarations must never be used.
@Suite("The parser notes each declaration's head")
struct DeclarationHeadTests {
    static let source = """
        import "other.saga"
        state { n: 0 }
        reduce "inc" as a { state.n = state.n + 1 }
        saga main { let x = call add(1, 2) }
        func add(a, b) { return a + b }
        """

    static func parsed(_ text: String) -> SourceUnit {
        Parser.parse(SourceFile(path: "t.saga", text: text), fileIndex: 0).unit
    }

    @Test func eachDeclarationsHeadIsNotedInOrder() {
        let unit = Self.parsed(Self.source)
        #expect(
            unit.heads == [
                .other, .other, .reducer, .saga("main", SourceLocation(line: 4, column: 1)),
                .function("add", arity: 2, SourceLocation(line: 5, column: 1)),
            ])
        #expect(unit.heads == unit.declarations.map(DeclarationHead.init))
    }

    @Test func aBrokenDeclarationHasNoHead() {
        let unit = Self.parsed("saga a { }\nfunc ( { }\nsaga b { }")
        #expect(unit.heads == unit.declarations.map(DeclarationHead.init))
        #expect(unit.heads?.count == 2)
    }

    @Test func eachPieceOfALargeFileNotesItsHeads() {
        var names = NameInterner()
        let text = (0..<20).map { "saga s\($0) { log \($0) }\nfunc f\($0)(a) { return a }" }.joined(separator: "\n")
        let (units, diagnostics) = Parser.parseUnits(
            SourceFile(path: "t.saga", text: text), fileIndex: 0, names: &names,
            pieces: ParsePieces(minimumBytes: 0, minimumPieceBytes: 1, maximumPieces: 8))
        #expect(diagnostics.isEmpty)
        #expect(units.count > 1)
        for unit in units { #expect(unit.heads != nil && unit.heads == unit.declarations.map(DeclarationHead.init)) }
    }

    @Test func changingTheDeclarationsLetsGoOfTheNotes() {
        var unit = Self.parsed(Self.source)
        unit.declarations.removeLast()
        #expect(unit.heads == nil)
    }

    @Test func theCheckerIndexesTheNamesOfDeclarationsReplacedAfterParsing() {
        // The notes of the first parse name `one`; the declarations that replace them, `two`.
        var unit = Self.parsed("func one() { return 1 }\nsaga main { let x = call one() }")
        unit.declarations = Self.parsed("func two() { return 2 }\nsaga main { let x = call two() }").declarations
        var checker = Checker(hostFunctions: [])
        let program = checker.check(units: [unit], files: [SourceFile(path: "t.saga", text: "")])
        #expect(checker.diagnostics.isEmpty)
        #expect(program?.functions.map(\.name) == ["two"])
    }
}
