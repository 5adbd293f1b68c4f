import SagaCore

/// Room for the temporaries of code the interpreter runs outside any task (a `take`'s `where`
/// condition, see ``Interpreter/value(of:it:env:)``; a `fork` block in its parent's turn, see
/// ``Interpreter/runInline(_:frame:parent:at:)``): made once, grown for a code that needs more, and
/// left empty after each run.
final class ExpressionRoom {
    private(set) var base: UnsafeMutablePointer<Value>
    private var capacity: Int

    init() {
        capacity = 4
        base = .allocate(capacity: capacity)
        base.initialize(repeating: .null, count: capacity)
    }

    deinit {
        base.deinitialize(count: capacity)
        base.deallocate()
    }

    /// Room for at least `count` values, every one null.
    func room(for count: Int) -> UnsafeMutablePointer<Value> {
        if count > capacity {
            base.deinitialize(count: capacity)
            base.deallocate()
            capacity = Swift.max(count, capacity * 2)
            base = .allocate(capacity: capacity)
            base.initialize(repeating: .null, count: capacity)
        }
        return base
    }

    /// Sets the first `count` values back to null, after a run that failed part-way.
    func empty(_ count: Int) {
        for i in 0..<Swift.min(count, capacity) { base[i] = .null }
    }
}
