import SagaCore

/// A saga's statement (a loop, a `try`, a `transaction`) that runs from its code (see
/// ``Compiler/sagaStatement(_:slotCount:callShapes:)``): where it stands, the temporaries in
/// which its `for` loops keep their items between turns and, after them, the locals of its
/// calls, and the `try`s and transactions it stands in.
final class RunningCode {
    let code: Code
    /// The next instruction.
    var pc = 0
    /// The handlers of the code's `try`s the code stands in, innermost last (see
    /// ``Code/Instruction/tryBegin(_:)``).
    @exclusivity(unchecked) var handlers: [Code.Handler] = []
    /// The ways out of a `try` whose `finally` block runs (see ``Code/Handler/finally``),
    /// innermost last, each with the number of handlers left when it began: it goes on at the
    /// block's ``Code/Instruction/finallyEnd``.
    @exclusivity(unchecked) var pending: [(depth: Int, completion: Completion)] = []
    /// The compensations registered in each `transaction` of the code it stands in, innermost
    /// last (see ``Code/Handler/compensates``).
    @exclusivity(unchecked) var transactions: [[Compensation]] = []
    /// Room for the code's temporaries, then its locals (at least one in all).
    let temporaries: UnsafeMutablePointer<Value>
    private let count: Int

    init(_ code: Code) {
        self.code = code
        count = max(code.temporaryCount + code.localCount, 1)
        temporaries = .allocate(capacity: count)
        temporaries.initialize(repeating: .null, count: count)
    }

    deinit {
        temporaries.deinitialize(count: count)
        temporaries.deallocate()
    }
}
