import Foundation

extension Value {
    /// The value of an `Encodable` Swift value, through its JSON encoding.
    ///
    /// ```swift
    /// try Value(encoding: Song(id: "1", title: "So What"))   // {"id":"1","title":"So What"}
    /// ```
    public init<T: Encodable>(encoding value: T) throws(SagaError) {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw SagaError(kind: "TypeError", message: "cannot encode \(T.self): \(error)")
        }
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(JSONError) -> Value in try JSONReader.parse(bytes: raw) }
        }
        switch parsed {
        case .success(let v): self = v
        case .failure(let error): throw SagaError(kind: "TypeError", message: "cannot encode \(T.self): \(error.message)")
        }
    }

    /// This value as a `Decodable` Swift value, through JSON.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws(SagaError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(canonicalJSON.utf8))
        } catch {
            throw SagaError(kind: "TypeError", message: "expected \(T.self), got \(canonicalJSON)")
        }
    }
}
