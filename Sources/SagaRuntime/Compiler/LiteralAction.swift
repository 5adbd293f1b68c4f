import SagaCore
import SagaLanguage

/// The actions of `put "t"` and of `put "t" {k: literal, …}`, made when the statement
/// compiles (see ``SiteKind``): the same value at every run of the statement, shared
/// (values are immutable) rather than built, and freed again, at each `put`.
enum LiteralAction {
    /// The action of `put type`: the type alone (``Record/init(type:)``).
    static func typeOnly(_ type: String) -> Value {
        .record(Record(type: type))
    }

    /// The action of `put type {fields}`, if every field is a literal and none is `type`.
    static func make(_ type: String, _ fields: [RecordField]) -> Value? {
        var entries: [Record.Entry] = []
        entries.reserveCapacity(fields.count + 1)
        for field in fields {
            guard case .literal(let value, _) = field.value else { return nil }
            entries.append(Record.Entry(key: field.key, value: value))
        }
        var payload = Record(unsortedEntries: entries)
        guard payload.insertIfAbsent("type", .string(type)) else { return nil }
        return .record(payload)
    }
}
