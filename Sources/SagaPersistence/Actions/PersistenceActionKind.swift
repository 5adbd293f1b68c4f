/// The action types of §7, told apart by the bytes of an action's `type`.
///
/// Each of these names is longer than Swift's small strings (15 bytes), so a `switch` over
/// them compared heap strings one after another, after a `hasPrefix`, twice per action (the
/// middleware, then the reducer); this reads the bytes once.
enum PersistenceActionKind: CaseIterable {
    case request
    case received
    case requestFailed
    case cancelRequest
    case canceled
    case save
    case saved
    case saveFailed
    case delete
    case deleted
    case deleteFailed

    /// The kind whose type `type` is, or nil for any other action.
    init?(type: String) {
        var type = type
        guard
            let kind = type.withUTF8({ bytes -> PersistenceActionKind? in
                let prefix = Self.prefix
                guard bytes.count > prefix.count, bytes.starts(with: prefix) else { return nil }
                let name = UnsafeBufferPointer(rebasing: bytes[prefix.count...])
                for (kind, spelling) in Self.names where spelling.count == name.count && name.elementsEqual(spelling) {
                    return kind
                }
                return nil
            })
        else { return nil }
        self = kind
    }

    /// The type's name after `persistence/`.
    var name: String {
        switch self {
        case .request: "request"
        case .received: "received"
        case .requestFailed: "requestFailed"
        case .cancelRequest: "cancelRequest"
        case .canceled: "canceled"
        case .save: "save"
        case .saved: "saved"
        case .saveFailed: "saveFailed"
        case .delete: "delete"
        case .deleted: "deleted"
        case .deleteFailed: "deleteFailed"
        }
    }

    /// The action type, `persistence/<name>`.
    var type: String { "persistence/" + name }

    private static let prefix = Array("persistence/".utf8)
    private static let names = allCases.map { ($0, Array($0.name.utf8)) }
}
