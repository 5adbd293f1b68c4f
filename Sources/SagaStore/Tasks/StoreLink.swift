/// What task work holds of the store: a weak reference (a task outliving its store dispatches
/// into nothing) and the error callback.
///
/// Weak, although that moves the store's reference counts to a side table, which makes each
/// retain of the store dearer (dearer than a reference the store clears in its `deinit`): the
/// store may go away
/// on another thread than its own (an app model's `deinit` runs where its last reference is
/// dropped) while a task's hop reads the link, and only a weak load is safe against that.
///
/// Unchecked `Sendable`: it crosses to the tasks' threads, but its contents are touched only
/// inside ``StoreThread/post(_:)`` and ``StoreThread/run(_:)``, on the store's thread.
@usableFromInline
final class StoreLink<State, Action>: @unchecked Sendable {
    /// Reads and dispatches through a weak reference (see ``MiddlewareAPI``).
    private let store: (read: () -> State?, dispatch: (Action) -> Void)
    private let onError: (TaskID, any Error) -> Void
    /// The store's thread, which the work hops to.
    let thread: any StoreThread

    @usableFromInline
    init(
        _ store: (read: () -> State?, dispatch: (Action) -> Void), thread: any StoreThread,
        onError: @escaping (TaskID, any Error) -> Void
    ) {
        self.store = store
        self.thread = thread
        self.onError = onError
    }

    /// Dispatches into the store, if it still exists.
    ///
    /// Store's thread only.
    func dispatch(_ action: Action) {
        store.dispatch(action)
    }

    /// Reads the state through `select`, or `nil` when the store is gone.
    ///
    /// Store's thread only.
    func read<T>(_ select: (State) -> T) -> T? {
        store.read().map(select)
    }

    /// Reports a failed task.
    ///
    /// Store's thread only.
    func report(_ id: TaskID, _ error: any Error) {
        onError(id, error)
    }
}
