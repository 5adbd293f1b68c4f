import SagaCore
import SagaStore

/// The binding `sagarun` uses: a `Store<Value, Value>` whose reducers are the program's own
/// (then any extra ones, like the persistence reducer), with the saga middleware outermost.
final class ValueStoreBinding: SagaStoreBinding {
    let store: Store<Value, Value>
    /// How the saga middleware reaches the interpreter: set only while it runs.
    let box: InterpreterBox

    init(store: Store<Value, Value>, box: InterpreterBox) {
        self.store = store
        self.box = box
    }

    var stateValue: Value { store.state }
    func process(_ action: Value) throws(SagaError) { store.dispatch(action) }
    var acceptsOutsideActions: Bool { false }
    func runStarted(_ interpreter: Interpreter) { box.set(interpreter) }
    func runEnded(_ interpreter: Interpreter) { box.clear() }
}
