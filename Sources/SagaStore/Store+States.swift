extension Store where State: Sendable {
    /// The store's states as they change: the current one first, then the state after each
    /// processed action, for as long as the sequence is iterated.
    ///
    /// A consumer that falls behind gets the newest state, not every one in between: wait here
    /// for a state that lasts (`.succeeded`, a user loaded), and use ``subscribe(_:)`` to see
    /// every state, a passing `.processing` included.
    ///
    /// ```swift
    /// for await state in store.states() where state.user != nil {
    ///     show(state.user)
    ///     break
    /// }
    /// ```
    ///
    /// Call it on the store's actor; the sequence may be iterated anywhere.
    public func states() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: .bufferingNewest(1))
        continuation.yield(state)
        let token = subscribe { state in continuation.yield(state) }
        let unsubscribe = UncheckedSender<Int>(send: { [weak self] token in self?.unsubscribe(token) })
        let actor = isolation ?? MainActor.shared
        continuation.onTermination = { _ in
            Task { await Self.run(unsubscribe, token, on: actor) }
        }
        return stream
    }

    /// Calls `unsubscribe` on the store's actor.
    private static func run(_ unsubscribe: UncheckedSender<Int>, _ token: Int, on actor: isolated any Actor) {
        unsubscribe.send(token)
    }
}
