/// Why code that ``VM/run(_:_:_:action:_:_:pc:steps:)`` runs stopped.
enum CodeExit {
    /// It ran to its end.
    case end
    /// It reached ``Code/Instruction/statement(_:)`` with this index of ``Code/sites``; it
    /// goes on after it.
    case statement(Int)
    /// A step paused it (see ``CodeSteps/step()``); it goes on with that step.
    case paused
    /// A statement it ran where it stands left the task waiting (see
    /// ``CodeSteps/put(_:into:_:_:)``); it goes on after that statement.
    case waiting
    /// A saga's code reached ``Code/Instruction/finallyEnd``: the way out that ran the
    /// `finally` block goes on (see ``CodeTries/pending``).
    case finallyEnds
    /// A saga's code reached ``Code/Instruction/returnValue(_:)``: its body returns the value
    /// in the place.
    case returns(Code.Place)
    /// A saga's code reached ``Code/Instruction/throwValue(_:)``: the value in the place is
    /// thrown.
    case raises(Code.Place)
}
