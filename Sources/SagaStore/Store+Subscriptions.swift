extension Store {
    /// Calls `subscriber` with the new state after every processed action.
    ///
    /// - Returns: a token for ``unsubscribe(_:)``.
    @discardableResult
    public func subscribe(_ subscriber: @escaping (State) -> Void) -> Int {
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers.append((id, subscriber))
        return id
    }

    /// Stops calling the subscriber that ``subscribe(_:)`` returned `token` for.
    public func unsubscribe(_ token: Int) {
        subscribers.removeAll { $0.token == token }
    }
}
