import SagaCore

/// A saga's loop that runs from its code (see ``Compiler/sagaLoop(_:slotCount:callShapes:)``):
/// where it stands, the temporaries in which its `for` loops keep their items between turns,
/// and, after them, the locals of its calls.
final class CompiledLoop {
    let code: Code
    /// The next instruction.
    var pc = 0
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
