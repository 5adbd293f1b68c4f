import SagaCore

/// Maps an app's actions and state to and from the language's values, so that sagas can
/// `take` and `put` the app's actions and `select` from its state.
///
/// ``CodableBridge`` does it for `Codable` types; write your own for a hot path (a `select`
/// of a large state encodes the whole state through `Codable`).
public protocol SagaBridge<State, Action> {
    associatedtype State
    associatedtype Action

    /// The value sagas see for an action (a record with a string `type`), or `nil` to keep
    /// the action from sagas.
    func value(of action: Action) -> Value?
    /// The app's action for the value a saga puts.
    func action(from value: Value) throws(SagaError) -> Action
    /// The state as `select` sees it.
    func value(of state: State) -> Value
}

/// A ``SagaBridge`` for `Codable` state and actions.
///
/// An enum action `case add(by: Int)` is `{type: "add", by: 2}` to sagas; a case with an
/// unlabelled value, `case load(Int)`, is `{type: "load", _0: 7}`; a struct action with a
/// `type` field is itself.
///
/// ```swift
/// enum AppAction: Codable { case add(by: Int), reset }
/// let bridge = CodableBridge<AppState, AppAction>()
/// ```
public struct CodableBridge<State: Encodable, Action: Codable>: SagaBridge {
    /// A bridge for these types.
    public init() {}

    public func value(of action: Action) -> Value? {
        guard let encoded = try? Value(encoding: action), case .record(let r) = encoded else { return nil }
        if case .string? = r["type"] { return encoded }
        // Swift's enum encoding: {"case": {fields}}.
        if r.count == 1, let entry = r.first, case .record(var fields) = entry.value {
            fields["type"] = .string(entry.key)
            return .record(fields)
        }
        return nil
    }

    public func action(from value: Value) throws(SagaError) -> Action {
        try ActionDecoding.decode(value, as: Action.self)
    }

    public func value(of state: State) -> Value {
        (try? Value(encoding: state)) ?? .null
    }
}

/// Decodes an action value with ``CodableBridge``'s convention: `{type: "add", by: 2}` is an
/// enum's `.add(by: 2)` (Swift encodes it as `{"add": {"by": 2}}`), or a struct with a `type`.
enum ActionDecoding {
    static func decode<A: Decodable>(_ value: Value, as type: A.Type) throws(SagaError) -> A {
        if case .record(var fields) = value, case .string(let name)? = fields["type"] {
            fields["type"] = nil
            if let action = try? Value.record(Record([(name, .record(fields))])).decode(as: A.self) {
                return action
            }
        }
        return try value.decode(as: A.self)
    }
}
