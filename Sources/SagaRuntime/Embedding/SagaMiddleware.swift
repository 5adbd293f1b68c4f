import SagaCore
import SagaLanguage
import SagaStore
import Synchronization

/// Runs sagas over an app's own `Store<State, Action>`: install ``middleware`` in the store,
/// then make an interpreter per program with ``interpreter(for:store:options:host:output:)``
/// and start it on the store's actor.
///
/// Several programs can share one store.
///
/// ```swift
/// let sagas = SagaMiddleware(bridge: CodableBridge<AppState, AppAction>())
/// let store = Store(initialState: AppState(), reducer: appReducer, middleware: [sagas.middleware])
/// let program = Frontend(hostFunctions: host.names).compile(path: "app.saga").program!
/// let interpreter = sagas.interpreter(for: program, store: store, host: host, output: output)
/// let running = interpreter.start()     // on the store's actor: the sagas wait for actions now
/// store.dispatch(.load(id: 1))          // sagas see {type: "load", id: 1}
/// interpreter.stop()                    // cancels the program's sagas (or: running.cancel())
/// _ = await running.value
/// ```
///
/// `start()` returns once the sagas wait for their first actions; `Task { await
/// interpreter.run() }` would miss actions dispatched before that task begins.
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
            binding.snapshot = { [unowned binding] in binding.liveState }
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
///
/// It does not keep the store alive: the store keeps the interpreter while it runs (through
/// its idle observer), and a run whose store is freed stops, its `put`s going nowhere and
/// `select` reading `null` from then on. Not through a weak reference, which would make every
/// retain and release of the store take the slow path: the store is unowned, and read only
/// while ``StoreWatch`` says it is there.
final class AppStoreBinding<State, Action>: SagaStoreBinding {
    unowned let store: Store<State, Action>
    /// Whether the store is gone: one per store, which its ``StoreSentinel`` sets.
    private let watch: StoreWatch
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
    var snapshot: (() -> (any Sendable)?)?

    init(
        store: Store<State, Action>, bridge: any SagaBridge<State, Action>, dispatch: @escaping (Action) -> Void,
        running: RunningInterpreters
    ) {
        self.store = store
        self.bridge = bridge
        self.dispatch = dispatch
        self.running = running
        if let sentinel = store.companion as? StoreSentinel {
            watch = sentinel.watch
        } else {
            watch = StoreWatch()
            store.companion = StoreSentinel(watch)
        }
    }

    /// The store's state, while the store is there.
    var liveState: State? { watch.isGone ? nil : store.state }

    var stateValue: Value { watch.isGone ? .null : bridge.value(of: store.state) }
    var acceptsOutsideActions: Bool { true }

    func process(_ value: Value) throws(SagaError) {
        if watch.isGone { return }
        dispatch(try bridge.action(from: value))
    }

    func runStarted(_ interpreter: Interpreter) {
        // Freed before the run began: there is nothing to run over.
        guard watch.runStarted(interpreter.stopRequest) else {
            interpreter.stop()
            return
        }
        running.list.append(interpreter)
        // The sagas an app's own dispatch wakes run before that dispatch returns, so that a
        // burst of dispatches reaches an `every` watcher one action at a time.
        idleObserver = store.whenIdle { interpreter.takeOutsideTurn() }
    }

    func runEnded(_ interpreter: Interpreter) {
        running.list.removeAll { $0 === interpreter }
        watch.runEnded(interpreter.stopRequest)
        if let idleObserver, !watch.isGone { store.removeIdleObserver(idleObserver) }
        idleObserver = nil
    }
}

/// Whether an app's store is gone (see ``StoreSentinel``), and the runs over it to stop when
/// it goes: shared by every interpreter bound to the store.
private final class StoreWatch: Sendable {
    /// Read at every `put`: an atomic, set under ``runs``' lock.
    private let gone = Atomic<Bool>(false)
    private let runs = Mutex<[ObjectIdentifier: StopRequest]>([:])

    var isGone: Bool { gone.load(ordering: .relaxed) }

    /// A run over the store starts; `false` if the store is gone.
    func runStarted(_ stop: StopRequest) -> Bool {
        runs.withLock { runs in
            if gone.load(ordering: .relaxed) { return false }
            runs[ObjectIdentifier(stop)] = stop
            return true
        }
    }

    func runEnded(_ stop: StopRequest) {
        _ = runs.withLock { $0.removeValue(forKey: ObjectIdentifier(stop)) }
    }

    /// The store has been freed: every run over it stops.
    func storeFreed() {
        let stops = runs.withLock { runs -> [StopRequest] in
            gone.store(true, ordering: .relaxed)
            return Array(runs.values)
        }
        for stop in stops { stop.ask() }
    }
}

/// The store's ``Store/companion``: freed with the store, it tells the store's
/// ``StoreWatch``.
private final class StoreSentinel: Sendable {
    let watch: StoreWatch

    init(_ watch: StoreWatch) {
        self.watch = watch
    }

    deinit { watch.storeFreed() }
}

extension AppStoreBinding: RunActorAdopting {
    func adopt(_ actor: any Actor) {
        if !watch.isGone { store.adoptIfUnbound(actor) }
    }
}

extension AppStoreBinding: StateSnapshotting {
    func stateSnapshot() -> (any Sendable)? {
        snapshot?() ?? nil
    }
}

/// A binding that can give its store's state itself, for ``AppSaga/select()``.
protocol StateSnapshotting {
    /// The store's state, if it is `Sendable`.
    func stateSnapshot() -> (any Sendable)?
}
