import SagaCore
import SagaLanguage
import SagaStore

/// Runs sagas over an app's own `Store<State, Action>`: install ``middleware`` in the
/// store, then make an interpreter per program with ``interpreter(for:store:options:host:output:)``
/// and `await` its `run()` on the store's actor. Several programs can share one store.
///
/// ```swift
/// let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
/// let store = Store(initialState: AppState(), reducer: appReducer, middleware: [sagas.middleware])
/// let program = Frontend(hostFunctions: host.names).compile(path: "app.saga").program!
/// let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
/// Task { @MainActor in _ = await interpreter.run() }
/// store.dispatch(.load(id: 1))          // sagas see {type: "load", id: 1}
/// interpreter.stop()                    // cancels the program's sagas
/// ```
public final class SagaMiddleware<State, Action> {
    private let bridge: any SagaBridge<State, Action>
    private var interpreters: [WeakInterpreter] = []

    /// A middleware that shows the app's actions to sagas through `bridge`.
    public init(bridge: some SagaBridge<State, Action>) {
        self.bridge = bridge
    }

    /// The middleware to install in the app's store (outermost, so that sagas see each
    /// action after every other middleware and the reducer).
    public var middleware: Middleware<State, Action> {
        Middleware { [self] _, next in
            { action in
                let value = self.bridge.value(of: action)
                let listeners = self.live()
                if let value { for i in listeners { i.actionWillReduce(value) } }
                next(action)
                if let value { for i in listeners { i.actionReduced(value) } }
            }
        }
    }

    /// An interpreter that runs `program` over `store` (which must have ``middleware``).
    public func interpreter(
        for program: Program, store: Store<State, Action>, options: Interpreter.Options = .init(),
        host: HostFunctions = HostFunctions(), output: RunOutput
    ) -> Interpreter {
        let binding = AppStoreBinding(store: store, bridge: bridge)
        let interpreter = Interpreter(program: program, binding: binding, options: options, host: host, output: output)
        interpreters.append(WeakInterpreter(interpreter))
        // The sagas an app's own dispatch wakes run before that dispatch returns, so that a
        // burst of dispatches reaches an `every` watcher one action at a time.
        store.whenIdle { [weak interpreter] in interpreter?.takeOutsideTurn() }
        return interpreter
    }

    private func live() -> [Interpreter] {
        interpreters.removeAll { $0.value == nil }
        return interpreters.compactMap(\.value)
    }
}

private struct WeakInterpreter {
    weak var value: Interpreter?
    init(_ value: Interpreter) { self.value = value }
}

/// The binding of an interpreter to an app's store.
final class AppStoreBinding<State, Action>: SagaStoreBinding {
    unowned let store: Store<State, Action>
    let bridge: any SagaBridge<State, Action>

    init(store: Store<State, Action>, bridge: any SagaBridge<State, Action>) {
        self.store = store
        self.bridge = bridge
    }

    var stateValue: Value { bridge.value(of: store.state) }
    var acceptsOutsideActions: Bool { true }

    func process(_ value: Value) throws(SagaError) {
        store.dispatch(try bridge.action(from: value))
    }
}
