import SagaCore

/// A saga's statement (a loop, a `try`, a `transaction`) that runs from its code (see
/// ``Compiler/sagaStatement(_:slotCount:callShapes:)``): where it stands, the temporaries in
/// which its `for` loops keep their items between turns and, after them, the locals of its
/// calls, and the `try`s and transactions it stands in.
final class RunningCode {
    let code: Code
    /// Its statement's body's storage, by which the interpreter keeps its code (see
    /// ``CodeCacheSlot``); `nil` for an empty body.
    let key: UnsafeRawPointer?
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
    /// Room for the code's temporaries, then its locals; for code with neither, ``noRoom``.
    let temporaries: UnsafeMutablePointer<Value>
    private let count: Int

    /// The room of code that has no temporaries and no locals, shared: such code reads and
    /// writes none of it, so it is not made and freed at each entry (a `try` of a body that
    /// runs once per action enters its code at each run).
    private nonisolated(unsafe) static let noRoom: UnsafeMutablePointer<Value> = {
        let room = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        room.initialize(to: .null)
        return room
    }()

    init(_ code: Code, key: UnsafeRawPointer?) {
        self.code = code
        self.key = key
        count = code.temporaryCount + code.localCount
        if count == 0 {
            temporaries = Self.noRoom
        } else {
            temporaries = .allocate(capacity: count)
            temporaries.initialize(repeating: .null, count: count)
        }
    }

    /// Made ready to run its code again from the start, keeping the room of its arrays.
    func reset() {
        pc = 0
        handlers.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        transactions.removeAll(keepingCapacity: true)
        for t in 0..<count { temporaries[t] = .null }
    }

    deinit {
        guard count > 0 else { return }
        temporaries.deinitialize(count: count)
        temporaries.deallocate()
    }
}
