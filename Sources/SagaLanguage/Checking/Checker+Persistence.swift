import SagaCore

extension Checker {
    /// The action types of the persistence middleware: what a saga puts to it, and what it
    /// answers with (see “Persistence” in Sagas/README.md).
    static let persistenceActions: Set<String> = [
        "persistence/save", "persistence/delete", "persistence/request", "persistence/cancelRequest",
        "persistence/saved", "persistence/deleted", "persistence/received", "persistence/canceled",
        "persistence/saveFailed", "persistence/deleteFailed", "persistence/requestFailed",
    ]

    /// Warns of a `put` or `take` of a `persistence/…` type the middleware neither handles nor
    /// puts.
    ///
    /// Nothing answers such a `put` (`persistence/load`), and such a `take` waits for ever
    /// (`persistence/recieved`). A glob (`persistence/*`) is left alone.
    mutating func warnIfNoPersistenceAction(_ type: String, at location: SourceLocation) {
        guard type.hasPrefix("persistence/"), !type.contains("*"), !Self.persistenceActions.contains(type) else {
            return
        }
        warning(
            "'\(type)' is not an action of the persistence middleware: a saga puts persistence/save, delete, "
                + "request or cancelRequest, and takes what they answer (saved, deleted, received, canceled, "
                + "saveFailed, deleteFailed, requestFailed)"
                + Suggestions.didYouMean(type, in: Self.persistenceActions),
            at: location)
    }
}
