import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Which watchers take short turns: an `every`, a `latest` or a `leading` whose pattern is a
/// literal (the common `every "type" as a`), and no other.
///
/// The others run their written-out loop.
@Suite struct ShortTurnWatcherTests {
    private func watcher(_ kind: Watcher.Kind, _ pattern: Pattern) -> Watcher {
        Watcher(
            kind: kind, duration: nil, pattern: pattern,
            binding: Variable(name: "a", slot: 3, location: .unknown),
            body: Block(statements: [], location: .unknown), location: .unknown)
    }

    private func literal(_ value: Value) -> Pattern { .expr(.literal(value, .unknown)) }

    /// `ShortTurnWatcher.make` for a watcher whose hidden variable the checker put in slot 7.
    private func make(hidden watcher: Watcher) -> ShortTurnWatcher? {
        var watcher = watcher
        watcher.hiddenSlot = 7
        return ShortTurnWatcher.make(for: watcher)
    }

    @Test func anEveryWithALiteralPatternTakesShortTurns() {
        let made = make(hidden: watcher(.every, literal("user/*")))
        #expect(made?.bindingSlot == 3)
        #expect(make(hidden: watcher(.every, .any(.unknown))) != nil)
        #expect(made?.lastSlot == nil)
    }

    @Test func aLatestWithALiteralPatternTakesShortTurnsKeepingItsLastBodyPastTheFrame() {
        let made = make(hidden: watcher(.latest, literal("search")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.lastSlot == 7)
    }

    @Test func aLeadingWithALiteralPatternTakesShortTurnsJoiningItsBodyPastTheFrame() {
        let made = make(hidden: watcher(.leading, literal("save")))
        #expect(made?.bindingSlot == 3)
        #expect(made?.joinSlot == 7)
        #expect(made?.lastSlot == nil)
    }

    /// The short turns of `leading` stand the watcher past its written-out loop's statements,
    /// which they know by their order (``Interpreter/WatcherStatement``): `take`, the `fork`
    /// into the hidden slot, `join`; in the loop's code, each ends where one of its
    /// ``Code/statementEnds`` is.
    @Test func leadingsShortTurnsKnowWhereItsLoopJoins() throws {
        var w = watcher(.leading, literal("save"))
        w.hiddenSlot = 7
        let block = WatcherLoop.loop(of: w)
        guard case .loop(let loop, _)? = block.statements.first else {
            Issue.record("not a loop: \(block.statements)")
            return
        }
        let body = loop.statements
        let fork = Interpreter.WatcherStatement.fork.rawValue
        let join = Interpreter.WatcherStatement.join.rawValue
        try #require(body.count == join + 1)
        guard case .declare(let binding, _, .effect(.take), _) = body[0] else {
            Issue.record("no take first: \(body[0])")
            return
        }
        #expect(binding.slot == 3)
        guard case .declare(let task, _, .effect(.fork), _) = body[fork] else {
            Issue.record("no fork before the join: \(body[1])")
            return
        }
        #expect(task.slot == make(hidden: w)?.joinSlot)
        guard case .effect(.join(.variable(let joined), _), _) = body[join] else {
            Issue.record("no join last: \(body[join])")
            return
        }
        #expect(joined.slot == task.slot)
        let code = try #require(Code(sagaBody: [.loop(loop, w.location)], slotCount: 8))
        #expect(code.statementEnds.count == body.count)
        // From its `join`, the code goes back to the `take`: the loop's next turn, then the
        // `take`'s own step; the watcher's second turn does the same (`takeAgain`).
        let joinSite = try #require(code.site(endingAt: code.statementEnds[join]))
        #expect(joinSite.nextTake.steps == 2)
        #expect(Int(joinSite.nextTake.pc) + 1 == code.statementEnds[0], "the take's instruction")
        let forkSite = try #require(code.site(endingAt: code.statementEnds[fork]))
        #expect(!forkSite.takesNext, "a join comes after it")
    }

    /// From `every`'s `fork`, the code goes back to its `take`: the short turns know how there.
    @Test func everysForkGoesBackToItsTake() throws {
        var w = watcher(.every, literal("save"))
        w.hiddenSlot = 7
        let code = try #require(Code(sagaBody: WatcherLoop.loop(of: w).statements, slotCount: 8))
        let forkSite = try #require(code.site(endingAt: code.statementEnds[1]))
        #expect(forkSite.takesNext)
        #expect(forkSite.nextTake.steps == 2)
        #expect(Int(forkSite.nextTake.pc) + 1 == code.statementEnds[0])
    }

    /// A body's variables: the watcher's, in the array of a body that ended before it, which
    /// holds nothing of that body any more; the action is moved to the body.
    @Test func aBodysVariablesAreTheWatchersInTheArrayOfTheBodyBefore() {
        let watcher = Watcher(
            kind: .every, duration: nil, pattern: .any(.unknown),
            binding: Variable(name: "a", slot: 1, location: .unknown), body: Block(statements: [], location: .unknown),
            location: .unknown)
        let kept = ShortTurnWatcher(watcher)
        var watcherVariables: [Value] = [.int(1), .string("a")]
        var first = kept.bodyVariables(movingActionOutOf: &watcherVariables)
        #expect(first == [.int(1), .string("a")])
        #expect(watcherVariables == [.int(1), .null], "the action is the body's alone")
        first[1] = .string("changed by the body")
        kept.keepVariables(&first)
        #expect(first.isEmpty)
        watcherVariables = [.int(2), .string("b")]
        let second = kept.bodyVariables(movingActionOutOf: &watcherVariables)
        #expect(second == [.int(2), .string("b")])
        // The kept array was handed on: the next body gets a new one, with the same values.
        watcherVariables = [.null, .int(3)]
        #expect(kept.bodyVariables(movingActionOutOf: &watcherVariables) == [.null, .int(3)])
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
