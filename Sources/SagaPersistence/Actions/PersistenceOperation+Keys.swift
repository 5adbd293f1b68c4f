import SagaCore

extension PersistenceOperation {
    /// The keys a `persistence/request` may have.
    static let requestKeys: Set<String> = [
        "type", "entity", "where", "orderBy", "limit", "offset", "live", "ref", "meta",
    ]

    /// The keys a `persistence/save` may have.
    static let saveKeys: Set<String> = ["type", "entity", "element", "ref", "meta"]
    /// The keys a `persistence/delete` may have.
    static let deleteKeys: Set<String> = ["type", "entity", "element", "id", "ref", "meta"]

    /// Why a save or a delete `r` is refused for its keys: one it does not have (a misspelt
    /// `element` would otherwise save `null`, or delete nothing), or, for a delete, an `id`
    /// that differs from its element's (which one it deletes would be a guess); `nil` if it is
    /// not.
    func keyError(_ r: Record) -> StoreError? {
        switch self {
        case .save:
            guard let key = r.keys.first(where: { !Self.saveKeys.contains($0) }) else { return nil }
            return .invalidElement("a save has no '\(key)': it has entity, element, ref and meta")
        case .delete:
            if let key = r.keys.first(where: { !Self.deleteKeys.contains($0) }) {
                return .invalidElement("a delete has no '\(key)': it has entity, element or id, ref and meta")
            }
            if let id = r["id"], case .record(let element)? = r["element"], let elementID = element["id"],
                (try? ElementID.check(id)) != (try? ElementID.check(elementID))
            {
                return .invalidElement(
                    "a delete's id \(id.canonicalJSON) and its element's id \(elementID.canonicalJSON) differ: "
                        + "name the element by one of them")
            }
            return nil
        case .request, .cancelRequest:
            return nil
        }
    }

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
