import SagaCore

/// The effects of a saga written in Swift over an app's own store, in the app's types: it
/// takes and puts the app's actions, selects its state, and calls host functions or its own
/// async functions.
///
/// Add one with ``SagaMiddleware/addSaga(_:to:_:)``.
///
/// ```swift
/// sagas.addSaga("fetchUser", to: interpreter) { saga in
///     while true {
///         guard case .fetchUser(let id) = try await saga.take("fetchUser") else { continue }
///         do {
///             let user: User = try await saga.call("api.fetchUser", id)
///             try await saga.put(.userLoaded(user: user))
///         } catch let error as SagaError {
///             try await saga.put(.userFailed(error.message))
///         }
///     }
/// }
/// ```
///
/// Each effect is the language's effect of the same name, on the same scheduler. Between two
/// effects the saga runs as a scripted saga does between two statements: an action the app
/// dispatches meanwhile is reduced at once, but reaches the sagas only once every saga waits
/// again, as if it had been dispatched then. So do slow work (a request, a sleep) through
/// ``call(_:)`` or ``delay(_:)``, never by awaiting it between effects: that would hold every
/// saga's actions back. Actions and state cross to the saga through the interpreter's
/// ``SagaBridge``; ``select()`` gives the app's state itself.
public struct AppSaga<State: Sendable, Action: Sendable>: Sendable {
    /// The untyped effects underneath, for what the typed ones do not cover (an untyped `put`
    /// or `take`, a `join` of a scripted saga's task, …).
    public let effects: SagaEffects
    let bridge: any SagaBridge<State, Action>

    /// Waits for an action whose type matches one of `patterns` (every action by default),
    /// and gives it as the app's action.
    ///
    /// - Throws: a `TypeError` when the bridge has no app action for the action's value.
    public func take(_ patterns: String...) async throws -> Action {
        let value = try await effects.driver.perform(
            .take(ActionPatternSpec(patterns: patterns.isEmpty ? ["*"] : patterns)))
        return try bridge.action(from: value)
    }

    /// Waits for the first action for which `matches` is true.
    ///
    /// ```swift
    /// let done = try await saga.take { if case .uploaded(let id) = $0 { id == wanted } else { false } }
    /// ```
    public func take(where matches: @Sendable (Action) -> Bool) async throws -> Action {
        while true {
            let value = try await effects.driver.perform(.take(ActionPatternSpec(patterns: ["*"])))
            if let action = try? bridge.action(from: value), matches(action) { return action }
        }
    }

    /// Dispatches the app's action; returns once it is processed.
    ///
    /// - Throws: a `TypeError` when the bridge keeps the action from sagas.
    public func put(_ action: Action) async throws {
        guard let value = bridge.value(of: action) else {
            throw SagaError.typeError("the saga bridge shows no value for \(action), so a saga cannot put it")
        }
        _ = try await effects.driver.perform(.put(value))
    }

    /// The app's state, as it is now.
    public func select() async throws -> State {
        guard case .snapshot(let any) = try await effects.driver.outcome(of: .selectState), let state = any as? State
        else {
            throw SagaError.typeError(
                "the store's state is not \(String(describing: State.self).withIndefiniteArticle)")
        }
        return state
    }

    /// A part of the app's state.
    public func select<T>(_ path: KeyPath<State, T> & Sendable) async throws -> T {
        try await select()[keyPath: path]
    }

    /// Calls a host function registered with the interpreter, with `Encodable` arguments, and
    /// decodes its result.
    ///
    /// A `Value` argument or result is passed as it is, not through JSON: a channel's handle
    /// (what a host function that makes an ``EventChannel`` returns) stays a channel, for
    /// `effects.take(from:)`.
    ///
    /// - Throws: a `HostError` naming the function and the types when an argument does not
    ///   encode or the result does not decode as `R`; the function's own error otherwise.
    public func call<R: Decodable>(
        _ name: String, _ arguments: any Encodable..., as type: R.Type = R.self
    )
        async throws -> R
    {
        var values: [Value] = []
        for (i, argument) in arguments.enumerated() {
            if let value = argument as? Value {
                values.append(value)
                continue
            }
            do {
                values.append(try Value(encoding: argument))
            } catch {
                throw SagaError(
                    kind: "HostError", message: "\(name): argument \(i + 1): cannot encode \(Swift.type(of: argument))")
            }
        }
        let result = try await effects.driver.perform(.call(name, values))
        if let value = result as? R { return value }
        do {
            return try result.decode(as: R.self)
        } catch {
            throw SagaError(
                kind: "HostError",
                message:
                    "\(name): the result \(result.canonicalJSON) is not \(String(describing: R.self).withIndefiniteArticle)"
            )
        }
    }

    /// Runs a Swift async function of the saga's as a host call: in flight on the scheduler
    /// (a virtual clock waits for it), and cancelled with the saga.
    ///
    /// ```swift
    /// let user = try await saga.call { try await api.user(id: id) }
    /// ```
    public func call<R: Codable & Sendable>(_ function: @escaping @Sendable () async throws -> R) async throws -> R {
        let result = try await effects.driver.perform(.callFunction({ _ in try Value(encoding: try await function()) }))
        do {
            return try result.decode(as: R.self)
        } catch {
            throw SagaError(
                kind: "HostError",
                message: "the result \(result.canonicalJSON) is not \(String(describing: R.self).withIndefiniteArticle)"
            )
        }
    }

    /// Waits `milliseconds` on the interpreter's clock.
    public func delay(_ milliseconds: Int) async throws {
        try await effects.delay(milliseconds)
    }

    /// Starts an attached child saga, in the app's types too; gives its task (for
    /// ``join(_:)`` and ``cancel(_:)``).
    ///
    /// The child is a task of its own: it performs its effects through the saga its closure
    /// is given, while this one goes on. Forking each action's work is how a loop handles
    /// every action, as `every` does, where a `call` in the loop itself would miss those that
    /// arrive meanwhile:
    ///
    /// ```swift
    /// while true {
    ///     guard case .fetchUser(let id) = try await saga.take("fetchUser") else { continue }
    ///     try await saga.fork { child in
    ///         let user: User = try await child.call("api.fetchUser", id)
    ///         try await child.put(.userLoaded(user: user))
    ///     }
    /// }
    /// ```
    @discardableResult
    public func fork(_ body: @escaping @Sendable (AppSaga<State, Action>) async throws -> Void) async throws -> Value {
        let bridge = self.bridge
        return try await effects.fork { child in try await body(AppSaga(effects: child, bridge: bridge)) }
    }

    /// Waits for a task that ``fork(_:)`` started to end (its own children too), as `join`
    /// does; an error it failed with is thrown here.
    public func join(_ task: Value) async throws {
        try await effects.join(task)
    }

    /// Cancels a task that ``fork(_:)`` started, as `cancel` does: the effect it waits on
    /// throws ``SagaEffects/Cancelled``, and its own children are cancelled too.
    public func cancel(_ task: Value) async throws {
        try await effects.cancel(task)
    }
}
