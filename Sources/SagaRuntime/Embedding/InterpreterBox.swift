/// How the saga middleware of an interpreter's own store (``Interpreter/store``) reaches it,
/// set only while it runs.
///
/// It is set from ``SagaStoreBinding/runStarted(_:)`` to ``SagaStoreBinding/runEnded(_:)``,
/// both on the run's actor, where the store dispatches too: then `run()` keeps the interpreter
/// alive, and once it has ended the interpreter may go away on any thread without the store
/// reaching for it.
///
/// Outside a run the middleware passes actions on to the reducer and nothing else; an app may
/// keep the store after the interpreter is gone. (Over an app's store, ``RunningInterpreters``
/// plays this part.)
///
/// Not a weak reference: an object that is weakly referenced has its reference counts moved to
/// a side table, which makes every retain and release of it, anywhere, several times dearer.
final class InterpreterBox {
    private var reference: Unmanaged<Interpreter>?

    /// Points the box at `interpreter`, as its run starts.
    func set(_ interpreter: Interpreter) {
        reference = .passUnretained(interpreter)
    }

    /// Empties the box, as the run ends.
    func clear() {
        reference = nil
    }

    /// Runs `body` with the running interpreter, if any, without retaining it (which saves
    /// two retains and releases per action): its `run()` holds it meanwhile.
    ///
    /// - Returns: whether there was one.
    @inline(__always) @discardableResult
    func with(_ body: (Interpreter) -> Void) -> Bool {
        guard let reference else { return false }
        reference._withUnsafeGuaranteedRef(body)
        return true
    }
}
