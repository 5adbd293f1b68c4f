import SagaCore
import Testing

@testable import SagaLanguage

/// A large program's names are indexed in two halves, on two threads (`DeclaredNames`); what
/// is declared first, what is a redeclaration and in which order they are reported are as one
/// thread finds them.
@Suite("Declared names")
struct DeclaredNamesTests {
    /// `count` sagas and functions over three units, with a name declared again every so often
    /// (a function after a saga, a saga after a function, a function after a function).
    static func heads(count: Int) -> [[DeclarationHead]] {
        var units: [[DeclarationHead]] = [[], [], []]
        for i in 0..<count {
            let at = SourceLocation(line: Int32(i + 1), column: 1)
            let name = i % 97 == 96 ? "n\(i - 50)" : "n\(i)"
            units[i * 3 / count].append(i % 3 == 0 ? .saga(name, at) : .function(name, arity: i % 4, at))
            if i % 500 == 0 { units[i * 3 / count].append(.reducer) }
        }
        return units
    }

    @Test func twoHalvesIndexAsOneThreadDoes() {
        let count = DeclaredNames.parallelThreshold + 3_000
        let heads = Self.heads(count: count)
        let (halves, halvesOwners, halvesRedeclarations) = DeclaredNames.index(heads, count: count)
        let (whole, wholeOwners, wholeRedeclarations) = DeclaredNames.index(heads, count: 0)
        #expect(halvesOwners.sorted() == wholeOwners.sorted())
        #expect(halvesRedeclarations.map(\.ordinal) == wholeRedeclarations.map(\.ordinal))
        #expect(halvesRedeclarations.map(\.previous) == wholeRedeclarations.map(\.previous))
        #expect(wholeRedeclarations.count == count / 97)
        for i in 0..<count + 1 {
            let a = halves.entry(named: "n\(i)")
            let b = whole.entry(named: "n\(i)")
            #expect(a?.function == b?.function && a?.isSaga == b?.isSaga && a?.location == b?.location)
        }
        var halvesFunctions: Set<String> = []
        halves.forEachFunctionName { halvesFunctions.insert($0) }
        var wholeFunctions: Set<String> = []
        whole.forEachFunctionName { wholeFunctions.insert($0) }
        #expect(halvesFunctions == wholeFunctions && !wholeFunctions.isEmpty)
    }

    @Test func aNameDeclaredTwiceIsReportedAtTheSecondWithTheFirstPlace() {
        let first = SourceLocation(line: 1, column: 6)
        let second = SourceLocation(line: 2, column: 6)
        let (names, owners, redeclarations) = DeclaredNames.index(
            [[.saga("a", first)], [.function("a", arity: 1, second)]], count: 2)
        #expect(owners == [0])
        #expect(redeclarations.map(\.location) == [second])
        #expect(redeclarations.map(\.previous) == [first])
        #expect(names.entry(named: "a")?.isSaga == true)
        #expect(names.entry(named: "a")?.function == 0)
        #expect(names.entry(named: "b") == nil)
    }
}
