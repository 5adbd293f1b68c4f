import SagaCore

/// How an interpreter reaches the store it runs over: it reads the state for `select`, and
/// has the store process each action a saga puts. The store, in turn, reports every action
/// it processes (a saga's or anyone else's) back to the interpreter, after its reducers have
/// run: ``Interpreter/actionReduced(_:)`` through the saga middleware.
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
}
