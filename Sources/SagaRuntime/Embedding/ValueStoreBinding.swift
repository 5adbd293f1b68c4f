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
    ///
    /// It follows from ``othersSayingWhatTheyActOn`` being empty, and is kept apart so that
    /// this, the common case, is one load rather than an unwrap and a loop at every dispatch.
    let sagaMiddlewareOnly: Bool
    /// The store's other middleware, when each says what it acts on (``Middleware/actsOn``):
    /// an action none of them acts on skips the chain too.
    ///
    /// `nil` when one of them does not say. Kept as they are, not as an array of their
    /// `actsOn` closures: taken out of the generic struct, each closure would be wrapped in a
    /// thunk, called through another.
    ///
    /// Through `sagarun run`, the persistence middleware follows the saga middleware, and the
    /// chain's closures would be a large cost at every dispatch, for actions it only passes
    /// on.
    let othersSayingWhatTheyActOn: [Middleware<Value, Value>]?

    init(store: Store<Value, Value>, box: InterpreterBox, others: [Middleware<Value, Value>]) {
        self.store = store
        self.box = box
        self.sagaMiddlewareOnly = others.isEmpty
        self.othersSayingWhatTheyActOn = others.allSatisfy { $0.actsOn != nil } ? others : nil
    }

    var stateValue: Value { store.state }

    func process(_ action: Value) throws(SagaError) {
        if sagaMiddlewareOnly || othersIgnore(action) {
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

    /// Whether the other middleware all say they do not act on `action`.
    ///
    /// By index: `contains(where:)` over closures goes through generic code.
    private func othersIgnore(_ action: Value) -> Bool {
        guard let others = othersSayingWhatTheyActOn else { return false }
        for i in others.indices where others[i].actsOn?(action) ?? true { return false }
        return true
    }

    var acceptsOutsideActions: Bool { false }
    func runStarted(_ interpreter: Interpreter) { box.set(interpreter) }
    func runEnded(_ interpreter: Interpreter) { box.clear() }
}
