import SagaCore

extension PersistenceOperation {
    /// The keys a `persistence/request` may have.
    static let requestKeys: Set<String> = [
        "type", "entity", "where", "orderBy", "limit", "offset", "live", "ref", "meta",
    ]

    /// Refuses a request with a key it does not have (a misspelt `limit` would be dropped
    /// unseen), or a `live` that is not a bool.
    static func checkRequestKeys(_ r: Record) throws(StoreError) {
        if let key = r.keys.first(where: { !requestKeys.contains($0) }) {
            throw .invalidQuery(
                "a request has no '\(key)': it has entity, where, orderBy, limit, offset, live, ref and meta")
        }
        switch r["live"] {
        case nil, .null?, .bool?: break
        case let other?: throw .invalidQuery("'live' is true or false, not \(other.canonicalJSON)")
        }
    }
}
