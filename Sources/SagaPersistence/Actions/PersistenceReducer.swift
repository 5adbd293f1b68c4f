import SagaCore

/// Keeps `state.persistence.<entity>` as the seed's `PersistenceState` (§7):
/// `{request, persist, delete}`, each a `{status: …}` record. The slice of an entity appears
/// with its first persistence action; `state.persistence` with the first of all.
enum PersistenceReducer {
    static func reduce(_ state: inout Value, _ action: Value) {
        guard case .record(let a) = action, case .string(let type)? = a["type"], type.hasPrefix("persistence/"),
            case .string(let entity)? = a["entity"], !entity.isEmpty, case .record(var root) = state
        else { return }
        let change: (field: String, value: Value)
        switch type {
        case "persistence/request": change = ("request", status("loading"))
        case "persistence/received": change = ("request", status("received", ["elements": a["elements"] ?? .list([])]))
        case "persistence/requestFailed":
            change = ("request", status("failed", ["error": a["error"] ?? .null, "request": a["request"] ?? .null]))
        case "persistence/canceled": change = ("request", status("canceled"))
        case "persistence/save": change = ("persist", status("processing"))
        case "persistence/saved": change = ("persist", status("succeeded"))
        case "persistence/saveFailed":
            change = ("persist", status("failed", ["error": a["error"] ?? .null, "element": a["element"] ?? .null]))
        case "persistence/delete": change = ("delete", status("processing"))
        case "persistence/deleted": change = ("delete", status("succeeded"))
        case "persistence/deleteFailed":
            change = ("delete", status("failed", ["error": a["error"] ?? .null, "element": a["element"] ?? .null]))
        case "persistence/cancelRequest":
            change = ("", .null)
        default:
            return
        }
        state = .null  // edit the state's storage in place
        var persistence = root["persistence"]?.recordValue ?? Record()
        var slice = persistence[entity]?.recordValue ?? initialSlice
        if !change.field.isEmpty { slice[change.field] = change.value }
        persistence[entity] = .record(slice)
        root["persistence"] = .record(persistence)
        state = .record(root)
    }

    static let initialSlice = Record([
        ("request", status("initial")), ("persist", status("initial")), ("delete", status("initial")),
    ])

    static func status(_ s: String, _ fields: Record = Record()) -> Value {
        var r = fields
        r["status"] = .string(s)
        return .record(r)
    }
}
