import SagaCore

/// Keeps `state.persistence.<entity>` (see “The persistence state” in Sagas/README.md):
/// `{request, persist, delete}`, each a `{status: …}` record.
///
/// The slice of an entity appears with its first persistence action; `state.persistence` with
/// the first of all.
enum PersistenceReducer {
    /// Applies `action` to `state.persistence`.
    ///
    /// Its caller (`ValuePersistence.reduce`) has let through, with
    /// `PersistenceActionKind.mayBe`, only actions that may be persistence actions; any other
    /// is still left alone here, by its type.
    static func reduce(_ state: inout Value, _ action: Value) {
        guard case .record(let a) = action, let type = a.actionType,
            let kind = PersistenceActionKind(type: type),
            case .string(let entity)? = a["entity"], !entity.isEmpty, case .record(var root) = state
        else { return }
        let change: (field: String, value: Value)
        switch kind {
        case .request: change = ("request", Statuses.loading)
        case .received: change = ("request", status("received", ["elements": a["elements"] ?? .list([])]))
        case .requestFailed:
            change = ("request", status("failed", ["error": a["error"] ?? .null, "request": a["request"] ?? .null]))
        case .canceled: change = ("request", Statuses.canceled)
        case .save: change = ("persist", Statuses.processing)
        case .saved: change = ("persist", Statuses.succeeded)
        case .saveFailed:
            change = ("persist", status("failed", ["error": a["error"] ?? .null, "element": a["element"] ?? .null]))
        case .delete: change = ("delete", Statuses.processing)
        case .deleted: change = ("delete", Statuses.succeeded)
        case .deleteFailed:
            change = ("delete", status("failed", ["error": a["error"] ?? .null, "element": a["element"] ?? .null]))
        case .cancelRequest:
            change = ("", .null)
        }
        // In place, level by level: each level lets go of its reference before editing the
        // one below, so no record on the way is copied (copying `persistence` and the slice
        // on every action would be most of this reducer's cost).
        state = .null
        root.modifyValue(forKey: "persistence") { (persistenceValue: inout Value) in
            var persistence = Record()
            if case .record(let r) = persistenceValue { persistence = r }
            persistenceValue = .null
            persistence.modifyValue(forKey: entity) { (sliceValue: inout Value) in
                var slice = initialSlice
                if case .record(let r) = sliceValue { slice = r }
                sliceValue = .null
                if !change.field.isEmpty { slice[change.field] = change.value }
                sliceValue = .record(slice)
            }
            persistenceValue = .record(persistence)
        }
        state = .record(root)
    }

    /// The statuses that carry nothing but their name, made once.
    enum Statuses {
        static let loading = status("loading")
        static let canceled = status("canceled")
        static let processing = status("processing")
        static let succeeded = status("succeeded")
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
