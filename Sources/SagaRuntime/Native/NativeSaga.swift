import SagaCore

/// A saga written in Swift: an `async` function that performs effects through ``SagaEffects``.
///
/// It runs on the same scheduler as scripted sagas and obeys the same ordering rules, so
/// native and scripted sagas interleave deterministically over one store.
///
/// ```swift
/// interpreter.addSaga("audit") { saga in
///     while true {
///         let action = try await saga.take("user/*")
///         let state = try await saga.select()
///         try await saga.put(["type": "audit/seen", "action": action, "users": state["users"]])
///     }
/// }
/// ```
///
/// Between two effects the saga holds the scheduler, as a scripted saga does between two
/// statements: actions an app dispatches meanwhile reach the sagas once it waits again. Do
/// slow work through ``SagaEffects/call(_:_:)``, not by awaiting it between effects.
///
/// Cancellation throws ``SagaEffects/Cancelled`` out of the effect the saga waits on: clean up
/// in `defer` or `catch` and let it propagate. At END a waiting `take` throws
/// ``SagaEffects/Ended``, which ends the saga as if it had returned.
public typealias NativeSaga = @Sendable (SagaEffects) async throws -> Void

/// An effect a native saga asks the scheduler for.
enum NativeEffect: Sendable {
    case take(ActionPatternSpec)
    /// `take CH`: the oldest message of a channel.
    case takeFrom(Value)
    case put(Value)
    case select
    case delay(Int)
    case call(String, [Value])
    /// A Swift async function of the saga's, run as a host call (in flight, cancellable).
    case callFunction(HostFunctions.Function)
    /// The app's own state, not its value (a typed `select`).
    case selectState
    case fork(NativeSaga)
    case join(Value)
    case cancel(Value)
    case race([(String, SagaEffect)])
    case all([(String, SagaEffect)])
}

/// An effect a native saga can start inside ``SagaEffects/race(_:)`` or ``SagaEffects/all(_:)``.
public enum SagaEffect: Sendable {
    /// `take` of actions matching one of the patterns.
    case take([String])

    /// `take` of actions matching `pattern`.
    public static func take(_ pattern: String) -> SagaEffect { .take([pattern]) }
    /// `delay` of this many milliseconds.
    case delay(Int)
    /// `call` of a host function registered with the interpreter.
    case call(String, [Value])
    /// `put` of an action.
    case put(Value)
    /// `select` of the whole state.
    case select
}

/// A pattern as native code gives it: strings, as in the language (exact, glob, `*`).
struct ActionPatternSpec: Sendable {
    var patterns: [String]
}
