/// An error as sagas see it: a record with a string `message`, and for run-time errors a
/// `kind` (`"TypeError"`, `"HostError"`, `"Timeout"`, …).
///
/// `throw "text"` makes `{message: "text"}`; `throw {…}` throws the record as is.
public struct SagaError: Error, Sendable, Equatable {
    /// The error record that `catch e` binds.
    public var value: Value

    /// An error holding the given value (normally a record with a `message`).
    public init(value: Value) {
        self.value = value
    }

    /// A run-time error of the given kind: `{kind, message}`.
    public init(kind: String, message: String) {
        self.value = ["kind": .string(kind), "message": .string(message)]
    }

    /// The error a host function failed with, as its answer (or a mock) gave it: a string is the
    /// message of a `HostError`; a record keeps its fields, with the kind `HostError` where it
    /// names none and its JSON as the message where it has no string one, so that every error
    /// has a string `message`; anything else is the message of a `HostError`, as JSON.
    package static func host(_ value: Value) -> SagaError {
        if case .string(let message) = value { return SagaError(kind: "HostError", message: message) }
        guard case .record(var r) = value else { return SagaError(kind: "HostError", message: value.canonicalJSON) }
        if r["kind"] == nil { r["kind"] = "HostError" }
        if case .string = r["message"] {} else { r["message"] = .string(value.canonicalJSON) }
        return SagaError(value: .record(r))
    }

    /// A type error: an operation on values of the wrong kind.
    public static func typeError(_ message: String) -> SagaError {
        SagaError(kind: "TypeError", message: message)
    }

    /// An arithmetic error: integer overflow or division by zero.
    public static func arithmetic(_ message: String) -> SagaError {
        SagaError(kind: "ArithmeticError", message: message)
    }

    /// The `message` of the error record, or its canonical JSON if it has none.
    public var message: String {
        if case .string(let s) = value["message"] { return s }
        return value.canonicalJSON
    }

    /// The `kind` of the error record, if it has one.
    public var kind: String? {
        if case .string(let s) = value["kind"] { return s }
        return nil
    }
}
