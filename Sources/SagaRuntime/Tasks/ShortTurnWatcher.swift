import SagaCore
import SagaLanguage

/// What an `every`, `latest` or `leading` watcher task needs for its short turns (see
/// ``Interpreter/runShortTurn(_:_:_:)``): where its loop binds each action, the body it forks,
/// the way its loop's code goes back to its `take`, and for `latest` and `leading`, where it
/// keeps the body it started last.
///
/// Only a watcher whose pattern is a literal (or `*`) has one: its `take` then matches the
/// same actions every time, an instruction of the loop's code that its short turns go back to.
final class ShortTurnWatcher {
    /// The slot of the variable bound to each action.
    let bindingSlot: Int
    let body: Block
    let location: SourceLocation
    /// The most steps the body takes when it runs in the watcher's turn (see
    /// ``Code/inlineSteps``), once its code is known: -1 for a body that cannot, -2 until then.
    @exclusivity(unchecked) var inlineSteps = -2
    /// For `latest`: the slot of its hidden `last` variable, the handle of the body it started
    /// last (see ``WatcherLoop/loop(of:)``); `nil` for the others.
    let lastSlot: Int?
    /// For `leading`: the slot of its hidden `task` variable, the handle of the body it joins
    /// (see ``WatcherLoop/loop(of:)``); `nil` for the others.
    let joinSlot: Int?
    /// How the watcher's loop's code goes back to its `take` from its `fork` (`every`,
    /// `latest`) or `join` (`leading`): that statement's ``Code/Site/nextTake``, which its
    /// short turns take (see ``Interpreter/takeAgain(_:_:)``); -1 in `pc` until the code is
    /// known, and where it does not.
    @exclusivity(unchecked) var nextTake: (pc: Int32, take: Int32, steps: Int32) = (-1, -1, 0)
    /// `leading`'s `join` statement.
    ///
    /// A traced run names it as what the watcher waits on. Found in the code with
    /// ``statementEnds``; the code holds it.
    @exclusivity(unchecked) unowned(unsafe) var joinSite: Code.Site?
    /// Where the watcher's loop's code goes on past each of its statements (the `take`, the
    /// `fork`, and for `leading` the `join`), by ``Interpreter/WatcherStatement``: found in the
    /// code the first time a short turn moves the watcher (see
    /// ``Interpreter/move(_:_:past:)``); -1 until then.
    @exclusivity(unchecked) var statementEnds: (take: Int, fork: Int, join: Int) = (-1, -1, -1)
    /// Whether a short turn has started a body (`latest`'s hidden `last` stays null after a
    /// body that ran in the watcher's turn, or ended before the watcher adopted it, where the
    /// statements would have kept its handle).
    @exclusivity(unchecked) var hasStartedBody = false
    /// The code of the body, found when its first task starts: each body's variables are the
    /// watcher's, as many each time.
    @exclusivity(unchecked) var bodyCode: Code?
    /// The variables array of a body that has ended, its slots set to null, for the next body
    /// to fill, so that no body allocates an array of its own (shared with the watcher until the body's
    /// first assignment copied it into a new one, freed when the body ended).
    ///
    /// Unchecked for exclusivity, as the tasks' fields are: only the interpreter's thread
    /// reaches it.
    @exclusivity(unchecked) private var spareVariables: [Value] = []

    init(_ watcher: Watcher, lastSlot: Int? = nil, joinSlot: Int? = nil) {
        self.bindingSlot = watcher.binding.slot
        self.body = watcher.body
        self.location = watcher.location
        self.lastSlot = lastSlot
        self.joinSlot = joinSlot
    }

    /// The variables of a new body: a copy of the watcher's `env`, as a `fork` makes, in the
    /// storage of an ended body's where one was kept; but the action, in ``bindingSlot``, is
    /// moved to the body, and the watcher's slot left `.null`.
    ///
    /// Only the body reads the action: the watcher's next statement is its `take`, which
    /// writes the slot again. Copied, the action would be retained for the body and released
    /// twice, when the body ended and when the next action took its place.
    func bodyVariables(movingActionOutOf env: inout [Value]) -> [Value] {
        var variables: [Value] = []
        swap(&variables, &spareVariables)
        // A kept array has the watcher's slots, all null (see ``keepVariables(_:)``): written
        // in place, with no check of its capacity or its count per variable.
        if variables.count == env.count {
            variables.withUnsafeMutableBufferPointer { body in
                env.withUnsafeMutableBufferPointer { watcher in
                    for i in 0..<watcher.count where i != bindingSlot { body[i] = watcher[i] }
                    if bindingSlot < watcher.count { swap(&body[bindingSlot], &watcher[bindingSlot]) }
                }
            }
            return variables
        }
        variables.removeAll(keepingCapacity: true)
        // One by one: `append(contentsOf:)` takes the generic path, which costs more than
        // copying the few variables of a watcher.
        variables.reserveCapacity(env.count)
        for i in env.indices {
            if i == bindingSlot {
                var action = Value.null
                swap(&action, &env[i])
                variables.append(action)
            } else {
                variables.append(env[i])
            }
        }
        return variables
    }

    /// Keeps the variables of a body that has ended for the next one, each set to null at
    /// once, so that what they held is let go when the body ends.
    ///
    /// `env` is left empty. A body the watcher's `fork` statement started (`latest` while its
    /// last body runs) that assigned nothing still shares the watcher's array, which is then
    /// copied to be set to null: rare enough not to check for at every body's end.
    func keepVariables(_ env: inout [Value]) {
        guard spareVariables.capacity == 0 else {
            env = []
            return
        }
        swap(&env, &spareVariables)
        spareVariables.withUnsafeMutableBufferPointer { variables in
            for i in 0..<variables.count { variables[i] = .null }
        }
    }

    /// The short turn's data for `watcher`, or `nil` if it is not an `every`, `latest` or
    /// `leading` watcher with a literal pattern.
    ///
    /// `latest`'s `last` and `leading`'s `task` are in the watcher's ``Watcher/hiddenSlot``.
    static func make(for watcher: Watcher) -> ShortTurnWatcher? {
        var lastSlot: Int?
        var joinSlot: Int?
        switch watcher.kind {
        case .every: break
        case .latest: lastSlot = watcher.hiddenSlot
        case .leading: joinSlot = watcher.hiddenSlot
        case .throttle, .debounce: return nil
        }
        switch watcher.pattern {
        case .any:
            break
        case .expr(.literal(let value, _)):
            guard (try? ActionPattern(value)) != nil else { return nil }
        case .expr:
            return nil
        }
        return ShortTurnWatcher(watcher, lastSlot: lastSlot, joinSlot: joinSlot)
    }
}
