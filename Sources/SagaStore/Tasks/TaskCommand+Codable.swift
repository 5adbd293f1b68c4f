/// A command in JSON, so that an app's `Codable` action type can carry one (and sagas, through
/// a `CodableBridge`, can see tasks start and cancel them by name):
/// `{"run": {"id": "search"}}`, `{"cancel": {"id": "search"}}`, `{"cancelAll": {}}`.
///
/// Only `cancel` and `cancelAll` decode: a task's work is a closure, which JSON cannot carry,
/// so decoding `run` throws. An id is written as its description, and a decoded id is a
/// string.
extension TaskCommand: Codable {
    private enum CodingKeys: String, CodingKey {
        case run, cancel, cancelAll
    }

    private enum IDKeys: String, CodingKey {
        case id
    }

    /// Decodes a `cancel` or a `cancelAll`; a `run` throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.cancelAll) {
            self = .cancelAll
        } else if container.contains(.cancel) {
            let fields = try container.nestedContainer(keyedBy: IDKeys.self, forKey: .cancel)
            self = .cancel(TaskID(try fields.decode(String.self, forKey: .id)))
        } else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "only cancel and cancelAll task commands can be decoded: a task's work cannot"))
        }
    }

    /// Encodes the command and its task's id.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .run(let task):
            var fields = container.nestedContainer(keyedBy: IDKeys.self, forKey: .run)
            try fields.encode(task.id.description, forKey: .id)
        case .cancel(let id):
            var fields = container.nestedContainer(keyedBy: IDKeys.self, forKey: .cancel)
            try fields.encode(id.description, forKey: .id)
        case .cancelAll:
            _ = container.nestedContainer(keyedBy: IDKeys.self, forKey: .cancelAll)
        }
    }
}
