import Foundation
import SagaCore

/// Maps an app's actions and state to and from the language's values, so that sagas can
/// `take` and `put` the app's actions and `select` from its state.
///
/// ``CodableBridge`` does it for `Codable` types; write your own for a hot path (a `select`
/// of a large state encodes the whole state through `Codable`). A bridge is `Sendable`: sagas
/// written in Swift use it on their own tasks.
public protocol SagaBridge<State, Action>: Sendable {
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
/// `type` field is itself. A case that wraps another enum's action, as an app's action wraps
/// a module's, is one action whose type is the path of cases: `.songs(.saved(song))` is
/// `{type: "songs/saved", element: {…}}`.
///
/// ```swift
/// enum AppAction: Codable { case add(by: Int), reset, songs(Songs.Action) }
/// let bridge = CodableBridge<AppState, AppAction>()
/// ```
public struct CodableBridge<State: Encodable, Action: Codable>: SagaBridge, Sendable {
    /// A bridge for these types.
    public init() {}

    public func value(of action: Action) -> Value? {
        guard let encoded = try? Value(encoding: action), case .record(let r) = encoded else { return nil }
        if case .string? = r["type"] { return encoded }
        // Swift's enum encoding: {"case": {fields}}, and for a case wrapping another enum's
        // action, {"case": {"_0": {"inner": {fields}}}}. A case is taken as wrapping when its one
        // value is itself an enum (a struct or a dictionary that encodes alike is a value).
        guard var (type, fields) = ActionDecoding.singleCase(r) else { return nil }
        var wrapped: Any = action
        while fields.count == 1, case .record(let inner)? = fields["_0"],
            let (innerType, innerFields) = ActionDecoding.singleCase(inner),
            let payload = Mirror(reflecting: wrapped).children.first?.value,
            Mirror(reflecting: payload).displayStyle == .enum
        {
            type += "/" + innerType
            fields = innerFields
            wrapped = payload
        }
        fields["type"] = .string(type)
        return .record(fields)
    }

    public func action(from value: Value) throws(SagaError) -> Action {
        try ActionDecoding.decode(value, as: Action.self)
    }

    public func value(of state: State) -> Value {
        (try? Value(encoding: state)) ?? .null
    }
}

/// Decodes an action value with ``CodableBridge``'s convention: `{type: "add", by: 2}` is an
/// enum's `.add(by: 2)` (Swift encodes it as `{"add": {"by": 2}}`), `{type: "songs/saved", …}`
/// is `.songs(.saved(…))`, or a struct with a `type`.
enum ActionDecoding {
    static func decode<A: Decodable>(_ value: Value, as type: A.Type) throws(SagaError) -> A {
        // Why the shape the type names failed: the reason the error gives.
        var reason = ""
        if case .record(var fields) = value, case .string(let name)? = fields["type"] {
            fields["type"] = nil
            let flat = attempt(.record(Record([(name, .record(fields))])), as: A.self)
            if let action = flat.action { return action }
            reason = flat.reason
            if name.contains("/") {
                // {"songs": {"_0": {"saved": {fields}}}}, built from the innermost case out.
                var nested = Value.record(fields)
                var innermost = true
                for part in name.split(separator: "/", omittingEmptySubsequences: false).reversed() {
                    let payload = innermost ? nested : .record(Record([("_0", nested)]))
                    nested = .record(Record([(String(part), payload)]))
                    innermost = false
                }
                let tried = attempt(nested, as: A.self)
                if let action = tried.action { return action }
                reason = tried.reason
            }
        }
        do {
            return try value.decode(as: A.self)
        } catch {
            guard !reason.isEmpty else { throw error }
            throw SagaError(kind: "TypeError", message: "expected \(A.self), got \(value.canonicalJSON)\(reason)")
        }
    }

    /// `value` as an `A`, or why it is not one, as ``Value/reason(_:)`` says it.
    private static func attempt<A: Decodable>(_ value: Value, as type: A.Type) -> (action: A?, reason: String) {
        do {
            return (try JSONDecoder().decode(A.self, from: Data(value.canonicalJSON.utf8)), "")
        } catch {
            return (nil, Value.reason(error))
        }
    }

    /// The case and fields of Swift's encoding of an enum case, `{"case": {fields}}`.
    static func singleCase(_ r: Record) -> (String, Record)? {
        guard r.count == 1, let entry = r.first, case .record(let fields) = entry.value else { return nil }
        return (entry.key, fields)
    }
}
