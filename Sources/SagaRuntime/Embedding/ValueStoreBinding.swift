import SagaCore
import SagaStore

/// The binding `sagarun` uses: a `Store<Value, Value>` whose reducers are the program's own
/// (then any extra ones, like the persistence reducer), with the saga middleware outermost.
final class ValueStoreBinding: SagaStoreBinding {
    let store: Store<Value, Value>

    init(store: Store<Value, Value>) {
        self.store = store
    }

    var stateValue: Value { store.state }
    func process(_ action: Value) throws(SagaError) { store.dispatch(action) }
    var acceptsOutsideActions: Bool { false }
}
