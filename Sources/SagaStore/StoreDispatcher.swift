/// Dispatches into a store from any thread or task: each action is dispatched on the store's
/// actor, in the order the calls were made.
///
/// Results of asynchronous work (a database write, a request) come back to a store this way.
///
/// ```swift
/// let send = store.dispatcher                  // on the store's actor
/// Task.detached {
///     let songs = try await api.songs()
///     send(.songsLoaded(songs))                // dispatched on the store's actor
/// }
/// ```
///
/// A store's actor is the one it was made on (see ``Store/init(initialState:reducer:middleware:isolation:)``).
/// An action sent after the store has gone away is dropped.
public struct StoreDispatcher<Action: Sendable>: Sendable {
    private let sender: UncheckedSender<Action>

    init(_ sender: UncheckedSender<Action>) {
        self.sender = sender
    }

    /// Sends `action` to the store: it is dispatched later, on the store's actor, after
    /// every action sent before it.
    public func send(_ action: Action) {
        sender.send(action)
    }

    /// Sends `action` to the store, as ``send(_:)``.
    public func callAsFunction(_ action: Action) {
        sender.send(action)
    }
}

/// A store inbox's `send`, as a function of the action type the dispatcher sends (a lifted
/// middleware's, say).
///
/// Unchecked: an inbox may be called from any thread, and a ``StoreDispatcher`` carries only
/// `Sendable` actions.
struct UncheckedSender<Action>: @unchecked Sendable {
    let send: (Action) -> Void
}
