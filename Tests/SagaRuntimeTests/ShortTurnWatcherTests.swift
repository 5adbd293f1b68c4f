import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Which watchers take short turns: an `every` whose pattern is a literal (the common
/// `every "type" as a`), and no other. The others run their written-out loop.
@Suite struct ShortTurnWatcherTests {
    private func watcher(_ kind: Watcher.Kind, _ pattern: Pattern) -> Watcher {
        Watcher(
            kind: kind, duration: nil, pattern: pattern,
            binding: Variable(name: "a", slot: 3, location: .unknown),
            body: Block(statements: [], location: .unknown), location: .unknown)
    }

    private func literal(_ value: Value) -> Pattern { .expr(.literal(value, .unknown)) }

    @Test func anEveryWithALiteralPatternTakesShortTurns() {
        let made = ShortTurnWatcher.make(for: watcher(.every, literal("user/*")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.pattern.matches(type: "user/loaded") == true)
        #expect(made?.pattern.matches(type: "other") == false)
        #expect(ShortTurnWatcher.make(for: watcher(.every, .any(.unknown))) != nil)
    }

    @Test func otherPatternsAndWatchersDoNot() {
        let variable = Pattern.expr(.variable(Variable(name: "p", slot: 0, location: .unknown)))
        let list = Pattern.expr(.list([.literal("a", .unknown)], .unknown))
        #expect(ShortTurnWatcher.make(for: watcher(.every, variable)) == nil)
        #expect(ShortTurnWatcher.make(for: watcher(.every, list)) == nil)
        // A literal that is not a pattern fails where the written-out `take` reports it.
        #expect(ShortTurnWatcher.make(for: watcher(.every, literal(5))) == nil)
        #expect(ShortTurnWatcher.make(for: watcher(.latest, literal("a"))) == nil)
        #expect(ShortTurnWatcher.make(for: watcher(.leading, literal("a"))) == nil)
    }
}
