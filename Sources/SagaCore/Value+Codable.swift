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
        case .failure(let error):
            throw SagaError(kind: "TypeError", message: "cannot encode \(T.self): \(error.message)")
        }
    }

    /// This value as a `Decodable` Swift value, through JSON.
    ///
    /// - Throws: a `TypeError` that names the type, the value and why it is not one (the field
    ///   missing or of the wrong kind, and where).
    public func decode<T: Decodable>(as type: T.Type = T.self) throws(SagaError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(canonicalJSON.utf8))
        } catch {
            throw SagaError(kind: "TypeError", message: "expected \(T.self), got \(canonicalJSON)\(Self.reason(error))")
        }
    }

    /// Why a decoding failed, as `: FIELD: WHAT` (empty when it does not say).
    package static func reason(_ error: any Error) -> String {
        func place(_ path: [any CodingKey]) -> String {
            let names = path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.filter { $0 != "_0" }
            return names.isEmpty ? "" : names.joined(separator: ".") + ": "
        }
        guard let error = error as? DecodingError else { return "" }
        switch error {
        case .keyNotFound(let key, let context):
            return ": \(place(context.codingPath))no '\(key.stringValue)'"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return ": \(place(context.codingPath))not \(String(describing: type).withIndefiniteArticle)"
        case .dataCorrupted(let context):
            return ": \(place(context.codingPath))\(context.debugDescription)"
        @unknown default:
            return ""
        }
    }
}

extension Value: Codable {
    /// Decodes any JSON-like value: null, bool, number, string, list or record.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let l = try? c.decode([Value].self) {
            self = .list(l)
        } else {
            let r = try c.decode([String: Value].self)
            self = .record(Record(r.map { ($0.key, $0.value) }))
        }
    }

    /// Encodes as the JSON value it stands for (a task or channel handle as its string form).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .list(let l): try c.encode(l)
        case .record(let r): try c.encode(Dictionary(r.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        case .handle(let h): try c.encode("<\(h.kind.rawValue) \(h.id)>")
        }
    }
}
