/// What task work holds of the store: a reference the store empties as it goes (a task
/// outliving its store dispatches into nothing) and the error callback.
///
/// Not a weak reference: an object that is weakly referenced has its reference counts moved to
/// a side table, which made every retain and release of the store, on every dispatch, several
/// times dearer for an app with a task middleware (callgrind, store-dispatch-tasks).
///
/// Unchecked `Sendable`: it crosses to the tasks' threads, but its contents are touched only
/// inside ``StoreThread/post(_:)`` and ``StoreThread/run(_:)``, on the store's thread, where
/// the store also goes away (it is confined to that thread).
@usableFromInline
final class StoreLink<State, Action>: @unchecked Sendable {
    private var store: Unmanaged<Store<State, Action>>?
    private let onError: (TaskID, any Error) -> Void

    @usableFromInline
    init(store: Store<State, Action>, onError: @escaping (TaskID, any Error) -> Void) {
        self.store = .passUnretained(store)
        self.onError = onError
        store.whenGone { [self] in self.store = nil }
    }

    /// Dispatches into the store, if it still exists. Store's thread only.
    func dispatch(_ action: Action) {
        // Held strongly for the dispatch: what the store calls may let go of it.
        store?.takeUnretainedValue().dispatch(action)
    }

    /// Reads the state through `select`, or `nil` when the store is gone. Store's thread only.
    func read<T>(_ select: (State) -> T) -> T? {
        guard let store = store?.takeUnretainedValue() else { return nil }
        return select(store.state)
    }

    /// Reports a failed task. Store's thread only.
    func report(_ id: TaskID, _ error: any Error) {
        onError(id, error)
    }
}
