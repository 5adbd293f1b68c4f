import SagaCore

/// A value type that a ``FileStoreController`` can keep: an entity name, an id and `Codable`.
///
/// ```swift
/// struct Song: Persistable, Equatable {
///     static let entityName = "songs"
///     var id: String
///     var title: String
///     var year: Int
/// }
/// ```
public protocol Persistable: Codable, Sendable {
    associatedtype ID: Codable & Hashable & Sendable
    /// The collection the elements are kept in.
    static var entityName: String { get }
    /// The element's identity: a save replaces the element with the same id.
    var id: ID { get }
}

/// Converts between `Codable` values and the store's ``Value``s.
enum ValueCoding {
    static func encode<T: Encodable>(_ value: T) throws(StoreError) -> Value {
        do {
            return try Value(encoding: value)
        } catch {
            throw StoreError(.invalidElement, error.message)
        }
    }

    static func decode<T: Decodable>(_ value: Value, as type: T.Type = T.self) throws(StoreError) -> T {
        do {
            return try value.decode(as: T.self)
        } catch {
            throw StoreError(.invalidElement, error.message)
        }
    }
}
