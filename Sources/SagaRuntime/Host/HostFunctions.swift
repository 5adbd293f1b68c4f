import SagaCore

/// The async Swift functions that sagas may `call`, `fork` or `spawn` by name.
///
/// Host functions run off the scheduler, in parallel with each other; a saga that calls one
/// blocks until it returns.
///
/// ```swift
/// var host = HostFunctions()
/// host.register("api.fetchUser") { args in
///     let id = args.first ?? .null
///     return ["id": id, "name": "Ada"]
/// }
/// ```
public struct HostFunctions: Sendable {
    /// A host function: the argument values in, a value out; a thrown error reaches the saga.
    public typealias Function = @Sendable ([Value]) async throws -> Value

    /// A function whose outcome is known the moment it is called (a mock's line): the
    /// interpreter asks it when the saga calls, so that such calls take their answers in the
    /// order they were made, however their results are then awaited.
    typealias Answer = @Sendable ([Value]) -> Result<Value, SagaError>

    var functions: [String: Function] = [:]
    /// The functions of ``functions`` that answer at the call (see ``Answer``).
    var answers: [String: Answer] = [:]
    /// What such a function is told of a call of it that an injected failure ended before it
    /// was made (`sagarun test --inject-failures`).
    var madeToFail: [String: @Sendable ([Value]) -> Void] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `function` under `name` (dotted names like `api.fetchUser` are fine),
    /// replacing any earlier one.
    public mutating func register(_ name: String, _ function: @escaping Function) {
        functions[name] = function
        answers[name] = nil
        madeToFail[name] = nil
    }

    /// Registers `answer` under `name`: a function asked for its outcome when it is called,
    /// and told of a call that an injected failure ended (`madeToFail`).
    mutating func register(
        _ name: String, answeringAtTheCall answer: @escaping Answer,
        madeToFail: (@Sendable ([Value]) -> Void)? = nil
    ) {
        functions[name] = { arguments in try answer(arguments).get() }
        answers[name] = answer
        self.madeToFail[name] = madeToFail
    }

    /// The registered names, for the checker.
    public var names: Set<String> { Set(functions.keys) }

    /// The function registered under `name`.
    public subscript(name: String) -> Function? { functions[name] }

    /// These functions, with those of `others` in place of any of the same name.
    public func merging(_ others: HostFunctions?) -> HostFunctions {
        guard let others else { return self }
        var merged = self
        merged.functions.merge(others.functions) { _, theirs in theirs }
        for name in others.functions.keys {
            merged.answers[name] = others.answers[name]
            merged.madeToFail[name] = others.madeToFail[name]
        }
        return merged
    }
}
