/// What task work holds of the store: a weak reference (a task outliving its store dispatches
/// into nothing) and the error callback.
///
/// Unchecked `Sendable`: it crosses to the tasks' threads, but its contents are touched only
/// inside ``StoreThread/post(_:)`` and ``StoreThread/run(_:)``, on the store's thread.
final class StoreLink<State, Action>: @unchecked Sendable {
    private weak var store: Store<State, Action>?
    private let onError: (TaskID, any Error) -> Void

    init(store: Store<State, Action>, onError: @escaping (TaskID, any Error) -> Void) {
        self.store = store
        self.onError = onError
    }

    /// Dispatches into the store, if it still exists. Store's thread only.
    func dispatch(_ action: Action) {
        store?.dispatch(action)
    }

    /// Reads the state through `select`, or `nil` when the store is gone. Store's thread only.
    func read<T>(_ select: (State) -> T) -> T? {
        store.map { select($0.state) }
    }

    /// Reports a failed task. Store's thread only.
    func report(_ id: TaskID, _ error: any Error) {
        onError(id, error)
    }
}
