import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Which watchers take short turns: an `every`, a `latest` or a `leading` whose pattern is a
/// literal (the common `every "type" as a`), and no other. The others run their written-out loop.
@Suite struct ShortTurnWatcherTests {
    private func watcher(_ kind: Watcher.Kind, _ pattern: Pattern) -> Watcher {
        Watcher(
            kind: kind, duration: nil, pattern: pattern,
            binding: Variable(name: "a", slot: 3, location: .unknown),
            body: Block(statements: [], location: .unknown), location: .unknown)
    }

    private func literal(_ value: Value) -> Pattern { .expr(.literal(value, .unknown)) }

    /// `ShortTurnWatcher.make` for a watcher started where the frame has 7 variables.
    private func make(hidden watcher: Watcher) -> ShortTurnWatcher? {
        ShortTurnWatcher.make(for: watcher, hiddenSlot: 7)
    }

    @Test func anEveryWithALiteralPatternTakesShortTurns() {
        let made = make(hidden: watcher(.every, literal("user/*")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.pattern.matches(type: "user/loaded") == true)
        #expect(made?.pattern.matches(type: "other") == false)
        #expect(make(hidden: watcher(.every, .any(.unknown))) != nil)
        #expect(made?.lastSlot == nil)
    }

    @Test func aLatestWithALiteralPatternTakesShortTurnsKeepingItsLastBodyPastTheFrame() {
        let made = make(hidden: watcher(.latest, literal("search")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.lastSlot == 7)
        #expect(made?.pattern.matches(type: "search") == true)
    }

    @Test func aLeadingWithALiteralPatternTakesShortTurnsJoiningItsBodyPastTheFrame() {
        let made = make(hidden: watcher(.leading, literal("save")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.joinSlot == 7)
        #expect(made?.lastSlot == nil)
        #expect(made?.pattern.matches(type: "save") == true)
    }

    @Test func otherPatternsAndWatchersDoNot() {
        let variable = Pattern.expr(.variable(Variable(name: "p", slot: 0, location: .unknown)))
        let list = Pattern.expr(.list([.literal("a", .unknown)], .unknown))
        #expect(make(hidden: watcher(.every, variable)) == nil)
        #expect(make(hidden: watcher(.every, list)) == nil)
        // A literal that is not a pattern fails where the written-out `take` reports it.
        #expect(make(hidden: watcher(.every, literal(5))) == nil)
        #expect(make(hidden: watcher(.latest, variable)) == nil)
        #expect(make(hidden: watcher(.leading, variable)) == nil)
        #expect(make(hidden: watcher(.throttle, literal("a"))) == nil)
        #expect(make(hidden: watcher(.debounce, literal("a"))) == nil)
    }
}
