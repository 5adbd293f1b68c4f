import Foundation
import SagaCore

/// A value type that a ``FileStoreController`` can keep: an entity name, an id and `Codable`
/// (the seed's `CoreDataPersistable`).
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

/// Converts between `Codable` values and the store's ``Value``s, through JSON.
enum ValueCoding {
    static func encode<T: Encodable>(_ value: T) throws(StoreError) -> Value {
        do {
            let data = try JSONEncoder().encode(value)
            return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws(JSONError) in try JSONReader.parse(bytes: raw) }
        } catch {
            throw StoreError(.invalidElement, "cannot encode \(T.self): \(error)")
        }
    }

    static func decode<T: Decodable>(_ value: Value, as type: T.Type = T.self) throws(StoreError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(value.canonicalJSON.utf8))
        } catch {
            throw StoreError(.invalidElement, "cannot decode \(T.self) from \(value.canonicalJSON): \(error)")
        }
    }
}
