import SagaCore
import Testing

@testable import SagaLanguage

/// The scopes the checker (and the parser, planning slots) keep while walking a declaration:
/// a name finds its innermost visible declaration, and closing a scope uncovers what it hid.
@Suite("Scopes find the innermost declaration of a name")
struct ScopeStackTests {
    private func entry(_ id: Int32, slot: Int, warns: Bool = false) -> ScopeStack.Entry {
        ScopeStack.Entry(
            nameID: id, slot: slot, isMutable: false, taskDepth: 0,
            location: SourceLocation(line: Int32(slot + 1), column: 1), warnsIfUnused: warns)
    }

    @Test func anInnerDeclarationHidesAnOuterOneUntilItsScopeCloses() {
        let scopes = ScopeStack()
        scopes.reset()
        scopes.declare(entry(3, slot: 0))
        scopes.push()
        scopes.declare(entry(3, slot: 1))
        #expect(scopes.lookup(3).map { scopes.entry(at: $0).slot } == 1)
        #expect(scopes.declaredInInnermostScope(3)?.slot == 1)
        scopes.pop()
        #expect(scopes.lookup(3).map { scopes.entry(at: $0).slot } == 0)
        #expect(scopes.declaredInInnermostScope(3)?.slot == 0)
        #expect(scopes.lookup(4) == nil)
        #expect(scopes.lookup(-1) == nil)
        #expect(scopes.depth == 1)
    }

    @Test func closingAScopeReportsItsUnusedWarningEntriesOnly() {
        let scopes = ScopeStack()
        scopes.reset()
        scopes.push()
        scopes.declare(entry(0, slot: 0, warns: true))
        scopes.declare(entry(1, slot: 1, warns: true))
        scopes.declare(entry(2, slot: 2))
        scopes.declare(entry(0, slot: 3, warns: true))
        if let used = scopes.lookup(1) { scopes.markUsed(used) }
        #expect(scopes.innermostHasUnused)
        // Of `0` declared twice, only the later declaration is reported.
        #expect(scopes.popUnused().map(\.slot) == [3])
        #expect(scopes.count == 0)
        #expect(scopes.lookup(0) == nil)
    }

    @Test func aScopeWhoseWarningEntriesAreAllUsedHasNoneUnused() {
        let scopes = ScopeStack()
        scopes.reset()
        scopes.declare(entry(0, slot: 0, warns: true))
        scopes.push()
        #expect(!scopes.innermostHasUnused)
        scopes.declare(entry(1, slot: 1))
        scopes.declare(entry(2, slot: 2, warns: true))
        #expect(scopes.innermostHasUnused)
        if let used = scopes.lookup(2) { scopes.markUsed(used) }
        #expect(!scopes.innermostHasUnused)
        #expect(scopes.popUnused().isEmpty)
        // The declaration's own scope still holds the unused `0`.
        #expect(scopes.innermostHasUnused)
    }

    @Test func resetForgetsEveryScopeAndName() {
        let scopes = ScopeStack()
        scopes.reset()
        scopes.declare(entry(5, slot: 0))
        scopes.push()
        scopes.declare(entry(6, slot: 1))
        scopes.reset()
        #expect(scopes.depth == 1)
        #expect(scopes.count == 0)
        #expect(scopes.lookup(5) == nil)
        #expect(scopes.lookup(6) == nil)
        #expect(scopes.visibleNameIDs.isEmpty)
    }

    @Test func manyScopesNamesAndDeclarationsGrowTheStack() {
        let scopes = ScopeStack()
        scopes.reset()
        // Past the first capacity of each buffer: 16 entries, 16 scopes, 64 name numbers.
        for i in 0..<200 {
            scopes.push()
            scopes.declare(entry(Int32(i % 100 * 3), slot: i))
        }
        #expect(scopes.depth == 201)
        #expect(scopes.count == 200)
        #expect(scopes.lookup(0).map { scopes.entry(at: $0).slot } == 100)
        #expect(scopes.lookup(297).map { scopes.entry(at: $0).slot } == 199)
        #expect(scopes.visibleNameIDs.count == 100)
        for _ in 0..<100 { scopes.pop() }
        #expect(scopes.lookup(0).map { scopes.entry(at: $0).slot } == 0)
        #expect(scopes.lookup(297).map { scopes.entry(at: $0).slot } == 99)
        #expect(scopes.lookup(298) == nil)
        #expect(scopes.lookup(1000) == nil)
    }
}
