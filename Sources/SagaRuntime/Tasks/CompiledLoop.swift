import SagaCore

/// A saga's loop that runs from its code (see ``Compiler/sagaLoop(_:slotCount:valueFunctions:)``): where it
/// stands, and the temporaries in which its `for` loops keep their items between turns.
final class CompiledLoop {
    let code: Code
    /// The next instruction.
    var pc = 0
    /// Room for the code's temporaries (at least one).
    let temporaries: UnsafeMutablePointer<Value>
    private let temporaryCount: Int

    init(_ code: Code) {
        self.code = code
        temporaryCount = max(code.temporaryCount, 1)
        temporaries = .allocate(capacity: temporaryCount)
        temporaries.initialize(repeating: .null, count: temporaryCount)
    }

    deinit {
        temporaries.deinitialize(count: temporaryCount)
        temporaries.deallocate()
    }
}
