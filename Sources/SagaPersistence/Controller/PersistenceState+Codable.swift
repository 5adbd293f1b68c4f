/// The states encode as sagas read them (`state.persistence.<entity>`, and an app's own
/// state through its bridge): a record with a `status`, and the fields of that status.
///
/// ```json
/// {"status": "received", "elements": [{"id": 1, "title": "So What"}]}
/// {"status": "failed", "error": "disk full", "element": {"id": 2}}
/// {"status": "initial"}
/// ```
private enum StatusKeys: String, CodingKey {
    case status, elements, error, request, element
}

extension PersistenceState.RequestState: Codable where Element: Codable, PersistenceError: Codable, Request: Codable {
    /// Decodes a `{status, …}` record; an unknown status is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StatusKeys.self)
        switch try container.decode(String.self, forKey: .status) {
        case "initial": self = .initial
        case "loading": self = .loading
        case "received": self = .received(try container.decode([Element].self, forKey: .elements))
        case "failed":
            self = .failed(
                error: try container.decode(PersistenceError.self, forKey: .error),
                request: try container.decode(Request.self, forKey: .request))
        case "canceled": self = .canceled
        case let status:
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription: "'\(status)' is not a request's status (initial, loading, received, failed, canceled)"
            )
        }
    }

    /// Encodes a `{status, …}` record.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatusKeys.self)
        switch self {
        case .initial: try container.encode("initial", forKey: .status)
        case .loading: try container.encode("loading", forKey: .status)
        case .received(let elements):
            try container.encode("received", forKey: .status)
            try container.encode(elements, forKey: .elements)
        case .failed(let error, let request):
            try container.encode("failed", forKey: .status)
            try container.encode(error, forKey: .error)
            try container.encode(request, forKey: .request)
        case .canceled: try container.encode("canceled", forKey: .status)
        }
    }
}

extension PersistenceState.ProcessState: Codable where Element: Codable, PersistenceError: Codable {
    /// Decodes a `{status, …}` record; an unknown status is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: StatusKeys.self)
        switch try container.decode(String.self, forKey: .status) {
        case "initial": self = .initial
        case "processing": self = .processing
        case "succeeded": self = .succeeded
        case "failed":
            self = .failed(
                error: try container.decode(PersistenceError.self, forKey: .error),
                element: try container.decode(Element.self, forKey: .element))
        case let status:
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription:
                    "'\(status)' is not a save's or delete's status (initial, processing, succeeded, failed)")
        }
    }

    /// Encodes a `{status, …}` record.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatusKeys.self)
        switch self {
        case .initial: try container.encode("initial", forKey: .status)
        case .processing: try container.encode("processing", forKey: .status)
        case .succeeded: try container.encode("succeeded", forKey: .status)
        case .failed(let error, let element):
            try container.encode("failed", forKey: .status)
            try container.encode(error, forKey: .error)
            try container.encode(element, forKey: .element)
        }
    }
}
