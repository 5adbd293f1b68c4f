import SagaCore
import SagaLanguage
import SagaStore

/// Runs sagas over an app's own `Store<State, Action>`: install ``middleware`` in the store,
/// then make an interpreter per program with ``interpreter(for:store:options:host:output:)``
/// and `await` its `run()` on the store's actor.
///
/// Several programs can share one store.
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
    /// The interpreters running over stores with this middleware, in the order they started.
    private let running = RunningInterpreters()

    /// A middleware that shows the app's actions to sagas through `bridge`.
    public init(bridge: some SagaBridge<State, Action>) {
        self.bridge = bridge
    }

    /// The middleware to install in the app's store (outermost, so that sagas see each
    /// action after every other middleware and the reducer).
    public var middleware: Middleware<State, Action> {
        Middleware { [self] _, next in
            { action in
                guard let value = self.bridge.value(of: action) else { return next(action) }
                // The interpreters running now, for both calls, read by index: a copy of the
                // array is a retain, where collecting them into a new array would allocate
                // for every action.
                let listeners = self.running.list
                for i in listeners.indices { listeners[i].actionWillReduce(value) }
                next(action)
                for i in listeners.indices { listeners[i].actionReduced(value) }
            }
        }
    }

    /// An interpreter that runs `program` over `store` (which must have ``middleware``).
    ///
    /// Inlinable, so that the sagas' `put`s reach the store through `dispatch` specialised for
    /// the app's types: from this module's generic code each one would look up the metadata
    /// of the store's queue.
    @inlinable
    public func interpreter(
        for program: Program, store: Store<State, Action>, options: Interpreter.Options = .init(),
        host: HostFunctions = HostFunctions(), output: RunOutput
    ) -> Interpreter {
        makeInterpreter(
            for: program, store: store, dispatch: { [unowned store] action in store.dispatch(action) },
            options: options, host: host, output: output)
    }

    /// Adds a root saga written in Swift, typed with the app's actions and state, to an
    /// interpreter this middleware made; call before starting it.
    ///
    /// See ``AppSaga``.
    public func addSaga(
        _ name: String, to interpreter: Interpreter,
        _ saga: @escaping @Sendable (AppSaga<State, Action>) async throws -> Void
    ) where State: Sendable, Action: Sendable {
        let bridge = self.bridge
        if let binding = interpreter.binding as? AppStoreBinding<State, Action> {
            let store = binding.store
            binding.snapshot = { [unowned store] in store.state }
        }
        interpreter.addSaga(name) { effects in try await saga(AppSaga(effects: effects, bridge: bridge)) }
    }

    @usableFromInline
    func makeInterpreter(
        for program: Program, store: Store<State, Action>, dispatch: @escaping (Action) -> Void,
        options: Interpreter.Options, host: HostFunctions, output: RunOutput
    ) -> Interpreter {
        let binding = AppStoreBinding(store: store, bridge: bridge, dispatch: dispatch, running: running)
        let interpreter = Interpreter(program: program, binding: binding, options: options, host: host, output: output)
        interpreter.takesOutsideTurns = true
        return interpreter
    }
}

/// The binding of an interpreter to an app's store.
final class AppStoreBinding<State, Action>: SagaStoreBinding {
    unowned let store: Store<State, Action>
    let bridge: any SagaBridge<State, Action>
    /// The store's `dispatch`, made where the app's types are known (see
    /// ``SagaMiddleware/interpreter(for:store:options:host:output:)``).
    let dispatch: (Action) -> Void
    /// The middleware's list of running interpreters.
    let running: RunningInterpreters
    /// The store's idle observer for the run under way.
    private var idleObserver: Int?
    /// The store's state itself, when it is `Sendable`: set by ``SagaMiddleware/addSaga(_:to:_:)``
    /// for ``AppSaga/select()``.
    var snapshot: (() -> any Sendable)?

    init(
        store: Store<State, Action>, bridge: any SagaBridge<State, Action>, dispatch: @escaping (Action) -> Void,
        running: RunningInterpreters
    ) {
        self.store = store
        self.bridge = bridge
        self.dispatch = dispatch
        self.running = running
    }

    var stateValue: Value { bridge.value(of: store.state) }
    var acceptsOutsideActions: Bool { true }

    func process(_ value: Value) throws(SagaError) {
        dispatch(try bridge.action(from: value))
    }

    func runStarted(_ interpreter: Interpreter) {
        running.list.append(interpreter)
        // The sagas an app's own dispatch wakes run before that dispatch returns, so that a
        // burst of dispatches reaches an `every` watcher one action at a time.
        idleObserver = store.whenIdle { interpreter.takeOutsideTurn() }
    }

    func runEnded(_ interpreter: Interpreter) {
        running.list.removeAll { $0 === interpreter }
        if let idleObserver { store.removeIdleObserver(idleObserver) }
        idleObserver = nil
    }
}

extension AppStoreBinding: StateSnapshotting {
    func stateSnapshot() -> (any Sendable)? {
        snapshot?()
    }
}

/// A binding that can give its store's state itself, for ``AppSaga/select()``.
protocol StateSnapshotting {
    /// The store's state, if it is `Sendable`.
    func stateSnapshot() -> (any Sendable)?
}
