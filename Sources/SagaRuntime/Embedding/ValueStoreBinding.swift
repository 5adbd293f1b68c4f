import SagaCore
import SagaStore

/// The binding `sagarun` uses: a `Store<Value, Value>` whose reducers are the program's own
/// (then any extra ones, like the persistence reducer), with the saga middleware outermost.
final class ValueStoreBinding: SagaStoreBinding {
    let store: Store<Value, Value>
    /// How the saga middleware reaches the interpreter: set only while it runs.
    let box: InterpreterBox
    /// Whether the saga middleware is the store's only one: the interpreter's actions then
    /// skip the chain (see `Store.dispatch(_:before:after:)`).
    let sagaMiddlewareOnly: Bool

    init(store: Store<Value, Value>, box: InterpreterBox, sagaMiddlewareOnly: Bool) {
        self.store = store
        self.box = box
        self.sagaMiddlewareOnly = sagaMiddlewareOnly
    }

    var stateValue: Value { store.state }

    func process(_ action: Value) throws(SagaError) {
        if sagaMiddlewareOnly {
            // The saga middleware's two halves, as its closure calls them.
            let done = box.with { interpreter in
                store.dispatch(
                    action, before: { interpreter.actionWillReduce(action) },
                    after: { interpreter.actionReduced(action) })
            }
            if done { return }
        }
        store.dispatch(action)
    }

    var acceptsOutsideActions: Bool { false }
    func runStarted(_ interpreter: Interpreter) { box.set(interpreter) }
    func runEnded(_ interpreter: Interpreter) { box.clear() }
}
