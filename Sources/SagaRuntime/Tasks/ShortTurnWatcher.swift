import SagaCore
import SagaLanguage

/// What an `every` or `latest` watcher task needs for its short turn (see
/// ``Interpreter/runShortTurn(_:_:_:)``): its pattern, evaluated once, where its loop
/// binds each action, the body it forks, and for `latest`, where it keeps the last body.
///
/// Only a watcher whose pattern is a literal (or `*`) has one: its `take` then matches the
/// same actions every time, so the pattern need not be evaluated again.
final class ShortTurnWatcher {
    let pattern: ActionPattern
    /// The slot of the variable bound to each action.
    let bindingSlot: Int
    let body: Block
    let location: SourceLocation
    /// For `latest`: the slot of its hidden `last` variable, the handle of the body it started
    /// last (see ``Desugar/watcher(_:env:)``); `nil` for `every`.
    let lastSlot: Int?

    init(pattern: ActionPattern, bindingSlot: Int, body: Block, location: SourceLocation, lastSlot: Int? = nil) {
        self.pattern = pattern
        self.bindingSlot = bindingSlot
        self.body = body
        self.location = location
        self.lastSlot = lastSlot
    }

    /// The short turn's data for `watcher`, or `nil` if it is not an `every` or `latest`
    /// watcher with a literal pattern. `hiddenSlot` is the first slot past the variables the
    /// watcher copies, where ``Desugar/watcher(_:env:)`` puts `latest`'s `last`.
    static func make(for watcher: Watcher, hiddenSlot: Int) -> ShortTurnWatcher? {
        let lastSlot: Int?
        switch watcher.kind {
        case .every: lastSlot = nil
        case .latest: lastSlot = hiddenSlot
        case .leading, .throttle, .debounce: return nil
        }
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
            pattern: pattern, bindingSlot: watcher.binding.slot, body: watcher.body, location: watcher.location,
            lastSlot: lastSlot)
    }
}
