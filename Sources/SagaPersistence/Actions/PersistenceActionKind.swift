import SagaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The persistence action types (see “Persistence” in Sagas/README.md), told apart by the
/// bytes of an action's `type`.
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

    /// Whether `action` may be a persistence action: a record whose `type` is a string longer
    /// than `persistence/`.
    ///
    /// Most actions are not, and are let through here, reading the type where it lies: taking
    /// it out of the record first would copy the record and the string and destroy them again,
    /// in the middleware and in the reducer, for every action.
    @inline(__always)
    static func mayBe(_ action: Value) -> Bool {
        guard case .record(let r) = action else { return false }
        return r.withValue(forKey: "type") { type in
            guard case .string(let s) = type else { return false }
            return s.utf8.count > prefixLength
        } ?? false
    }

    /// The kind whose type `type` is, or nil for any other action.
    init?(type: String) {
        // Most actions are not persistence actions, and most types are short: rejected by
        // their length alone, without reaching the bytes (`withUTF8` copies a small string).
        guard type.utf8.count > Self.prefixLength else { return nil }
        var type = type
        guard let kind = type.withUTF8({ Self.kind(of: $0) }) else { return nil }
        self = kind
    }

    /// The kind whose type is spelled by `bytes`.
    ///
    /// Compared with `memcmp`: the generic `starts(with:)` and `elementsEqual` cost far more
    /// per action.
    private static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> PersistenceActionKind? {
        let prefixCount = prefix.count
        guard bytes.count > prefixCount, let base = bytes.baseAddress, same(base, prefix) else { return nil }
        let nameCount = bytes.count - prefixCount
        for (kind, spelling) in names where spelling.count == nameCount && same(base + prefixCount, spelling) {
            return kind
        }
        return nil
    }

    /// Whether the bytes at `start` begin with `bytes`.
    private static func same(_ start: UnsafePointer<UInt8>, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { b in b.baseAddress.map { memcmp(start, $0, b.count) == 0 } ?? true }
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

    static let prefix = Array("persistence/".utf8)
    /// `prefix.count` as a constant: reading the array went through its lazy initialiser's
    /// check (`swift_once`) for every action.
    static let prefixLength = 12
    private static let names = allCases.map { ($0, Array($0.name.utf8)) }
}
