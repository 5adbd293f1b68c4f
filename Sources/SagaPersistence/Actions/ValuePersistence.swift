import SagaCore
import SagaStore

/// The persistence layer of the saga language (see “Persistence” in Sagas/README.md): a
/// middleware that performs the `persistence/save`, `delete`, `request` and `cancelRequest`
/// actions against an ``ElementStore`` and dispatches their results, and the reducer that
/// keeps `state.persistence.<entity>`.
///
/// ```swift
/// let persistence = ValuePersistence(store: MemoryStore())
/// let interpreter = Interpreter(
///     program: program, middleware: [persistence.middleware], reducers: [persistence.reduce], output: output)
/// persistence.scheduler = interpreter.asyncWork
/// ```
///
/// The work runs off the store's thread through ``scheduler``, so the interpreter counts it
/// as in flight; a result action joins the dispatch queue when its work completes. A write is
/// acknowledged (`saved`, `deleted`) only once the store says it is on stable storage.
public final class ValuePersistence: @unchecked Sendable {
    /// The store the elements live in.
    public let store: any ElementStore
    /// Runs the work and dispatches its results; set before the first action.
    public var scheduler: (any AsyncWorkScheduler<Value>)?
    /// Live requests, shared with the work in flight.
    let live = LiveRequests()

    /// Creates the layer over `store`.
    public init(store: any ElementStore) {
        self.store = store
    }

    /// The middleware: lets each action through, then starts the work a request action asks for.
    public var middleware: Middleware<Value, Value> {
        // A closure here, rather than `Self.mayAct(on:)`, which a store would call through
        // one more thunk.
        let actsOn: (Value) -> Bool = { PersistenceActionKind.mayBe($0) }
        return Middleware(actingOn: actsOn) { [self] _, next in
            { action in
                next(action)
                // Checked here, before the call: most actions are not persistence actions,
                // and `start`'s entry and exit cost more than the check.
                if PersistenceActionKind.mayBe(action) { self.start(action) }
            }
        }
    }

    /// Whether `action` may be a persistence action (its type longer than `persistence/`):
    /// false for most actions at a glance.
    ///
    /// The middleware acts on no other, so a store may skip it for those (see
    /// `Middleware/init(actingOn:_:)`).
    public static func mayAct(on action: Value) -> Bool {
        PersistenceActionKind.mayBe(action)
    }

    /// Starts the work `action` asks for.
    ///
    /// Its caller has let through, with `PersistenceActionKind.mayBe`, only actions that may
    /// be persistence actions.
    private func start(_ action: Value) {
        guard case .record(let r) = action, let type = r.actionType,
            let kind = PersistenceActionKind(type: type)
        else { return }
        let operation: PersistenceOperation
        switch kind {
        case .save: operation = .save
        case .delete: operation = .delete
        case .request: operation = .request
        case .cancelRequest: operation = .cancelRequest
        default: return
        }
        guard let scheduler else { return }
        let store = self.store
        let live = self.live
        switch operation.route(r, live: live) {
        case .direct:
            scheduler.schedule(reporting: { finish in operation.start(r, store: store, live: live, finish: finish) })
        case .queued(let ticket):
            scheduler.schedule(reporting: { finish in
                Task { await operation.perform(r, store: store, live: live, ticket: ticket, finish: finish) }
            })
        case .async:
            scheduler.schedule(reporting: { finish in
                Task { await operation.perform(r, store: store, live: live, finish: finish) }
            })
        }
    }

    /// The reducer of `state.persistence`: call it after the program's own reducers.
    public func reduce(_ state: inout Value, _ action: Value) {
        // Checked before the call, as in the middleware.
        if PersistenceActionKind.mayBe(action) { PersistenceReducer.reduce(&state, action) }
    }
}
