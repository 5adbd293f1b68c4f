import SagaCore
import SagaLanguage

/// What an `every` watcher task needs for its short turn (see
/// ``Interpreter/runShortTurn(_:_:_:)``): its pattern, evaluated once, where its loop
/// binds each action, and the body it forks.
///
/// Only a watcher whose pattern is a literal (or `*`) has one: its `take` then matches the
/// same actions every time, so the pattern need not be evaluated again.
final class ShortTurnWatcher {
    let pattern: ActionPattern
    /// The slot of the variable bound to each action.
    let bindingSlot: Int
    let body: Block
    let location: SourceLocation

    init(pattern: ActionPattern, bindingSlot: Int, body: Block, location: SourceLocation) {
        self.pattern = pattern
        self.bindingSlot = bindingSlot
        self.body = body
        self.location = location
    }

    /// The short turn's data for `watcher`, or `nil` if it is not an `every` watcher with a
    /// literal pattern.
    static func make(for watcher: Watcher) -> ShortTurnWatcher? {
        guard watcher.kind == .every else { return nil }
        let pattern: ActionPattern
        switch watcher.pattern {
        case .any:
            pattern = .any
        case .expr(.literal(let value, _)):
            guard let made = try? ActionPattern(value) else { return nil }
            pattern = made
        case .expr:
            return nil
        }
        return ShortTurnWatcher(
            pattern: pattern, bindingSlot: watcher.binding.slot, body: watcher.body, location: watcher.location)
    }
}
