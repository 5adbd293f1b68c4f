import SagaCore

/// How an interpreter reaches the store it runs over: it reads the state for `select`, and has
/// the store process each action a saga puts.
///
/// The store, in turn, reports every action it processes (a saga's or anyone else's) back to
/// the interpreter, after its reducers have run: `Interpreter.actionReduced(_:)` through the
/// saga middleware.
public protocol SagaStoreBinding: AnyObject {
    /// The state as sagas see it.
    var stateValue: Value { get }
    /// Processes one action now, through the store's middleware and reducers.
    ///
    /// - Throws: a `SagaError` when the store has no action for this value.
    func process(_ action: Value) throws(SagaError)
    /// Whether actions may arrive from outside the interpreter (an app's own dispatches):
    /// then the interpreter keeps running until it is stopped, and END never comes.
    var acceptsOutsideActions: Bool { get }
    /// Called on the run's actor as `interpreter` starts ``Interpreter/run(input:isolation:)``:
    /// from now until ``runEnded(_:)``, the store's actions reach it.
    func runStarted(_ interpreter: Interpreter)
    /// Called on the run's actor as the run ends: the store's actions no longer reach the
    /// interpreter, which may then go away on any thread.
    func runEnded(_ interpreter: Interpreter)
}

extension SagaStoreBinding {
    /// Nothing to do by default.
    public func runStarted(_ interpreter: Interpreter) {}
    /// Nothing to do by default.
    public func runEnded(_ interpreter: Interpreter) {}
}
