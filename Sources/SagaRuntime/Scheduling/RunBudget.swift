import SagaCore

/// What a run may spend and what it has spent: steps (``Interpreter/Options/maxRunSteps``),
/// turns taken with no word from outside (``Interpreter/Options/maxTurnsWithoutInput``) and
/// memory (``Interpreter/Options/maxMemory``).
///
/// It counts, and says when a limit is passed (an ``Overrun``); the interpreter then stops the
/// run, and nothing runs after. A struct held in the interpreter: counting a step is an
/// addition to one of its fields.
struct RunBudget {
    /// A limit the run has passed.
    enum Overrun {
        /// More than this many steps.
        case steps(Int)
        /// More than this many turns on its own.
        case turnsWithoutInput(Int)
        /// More memory than the watch allows: its limit, in bytes.
        case memory(limit: Int)
    }

    /// ``Interpreter/Options/maxRunSteps``.
    let maxRunSteps: Int?
    /// ``Interpreter/Options/maxTurnsWithoutInput``, or `Int.max`.
    let maxTurnsWithoutInput: Int
    /// Whether each turn of the run loop counts against a limit: a run-step limit, a limit of
    /// turns on its own, or a memory budget (a run without one pays for no count).
    let checksEachTurn: Bool
    /// Steps taken by every task so far (the reducers count theirs apart, see
    /// ``VM/stepsTaken``).
    var stepsTaken = 0
    /// Turns taken since the run last heard from outside.
    var turnsWithoutInput = 0
    /// Watches the memory budget while the run goes on, once it has started.
    var memoryWatch: MemoryWatch?
    /// Set once a limit has been passed: the run is stopped, and nothing runs after.
    var isSpent = false

    init(_ options: Interpreter.Options) {
        maxRunSteps = options.maxRunSteps
        maxTurnsWithoutInput = options.maxTurnsWithoutInput ?? Int.max
        checksEachTurn = options.maxRunSteps != nil || options.maxTurnsWithoutInput != nil || options.maxMemory != nil
    }

    /// Counts a turn of the run loop (``checksEachTurn``), beside the reducers' `reducerSteps`:
    /// the limit it passes, if any.
    @inline(__always)
    mutating func countTurn(reducerSteps: Int) -> Overrun? {
        if let overrun = countStep(reducerSteps: reducerSteps) { return overrun }
        if let overrun = countTurnWithoutInput() { return overrun }
        if isOverMemory { return .memory(limit: memoryWatch?.limit ?? 0) }
        return nil
    }

    /// Counts one step toward ``maxRunSteps`` (a turn, or an action processed on the spot),
    /// beside the reducers' `reducerSteps`: `.steps` once past it.
    @inline(__always)
    mutating func countStep(reducerSteps: Int) -> Overrun? {
        guard let limit = maxRunSteps else { return nil }
        stepsTaken &+= 1
        return stepsTaken &+ reducerSteps > limit ? .steps(limit) : nil
    }

    /// Counts a turn taken on the run's own (an action processed, when counted): `.turnsWithoutInput`
    /// once past ``maxTurnsWithoutInput``.
    @inline(__always)
    mutating func countTurnWithoutInput() -> Overrun? {
        turnsWithoutInput &+= 1
        return turnsWithoutInput > maxTurnsWithoutInput ? .turnsWithoutInput(maxTurnsWithoutInput) : nil
    }

    /// The run heard from outside (an input line, a host call's answer, an event channel's
    /// message, a real wait): the count of turns on its own starts again.
    @inline(__always)
    mutating func heardFromOutside() { turnsWithoutInput = 0 }

    /// How many more steps a task may take before the run, with the reducers' `reducerSteps`,
    /// has taken ``maxRunSteps``: `Int.max` without a limit.
    @inline(__always)
    func stepsLeft(reducerSteps: Int) -> Int {
        guard let limit = maxRunSteps else { return Int.max }
        return max(0, limit &- stepsTaken &- reducerSteps)
    }

    /// Whether the memory budget, if any, is exceeded.
    var isOverMemory: Bool { memoryWatch?.isExceeded == true }
}
