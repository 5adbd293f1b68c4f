import SagaCore
import Synchronization

/// The effects a ``NativeSaga`` performs: each suspends the saga until the scheduler has
/// performed it, exactly as the language's effect of the same name.
public final class SagaEffects: Sendable {
    /// Thrown out of an effect when the saga is cancelled.
    public struct Cancelled: Error, Sendable {
        public init() {}
    }

    /// Thrown out of a `take` at END (no more input will come): the saga ends as if it returned.
    public struct Ended: Error, Sendable {
        public init() {}
    }

    let driver: NativeDriver

    init(driver: NativeDriver) {
        self.driver = driver
    }

    /// Waits for an action whose type matches one of `patterns` (exact, a glob with `*`, or `*`).
    @discardableResult
    public func take(_ patterns: String...) async throws -> Value {
        try await driver.perform(.take(ActionPatternSpec(patterns: patterns.isEmpty ? ["*"] : patterns)))
    }

    /// Waits for an action matching `patterns` (every action by default) and decodes it as
    /// `A`, with ``CodableBridge``'s convention (`{type: "add", by: 2}` is `.add(by: 2)`).
    ///
    /// ```swift
    /// let action = try await saga.take(AppAction.self, "loadUser")
    /// ```
    public func take<A: Decodable>(_ type: A.Type, _ patterns: String...) async throws -> A {
        let value = try await driver.perform(.take(ActionPatternSpec(patterns: patterns.isEmpty ? ["*"] : patterns)))
        return try ActionDecoding.decode(value, as: A.self)
    }

    /// Takes the oldest message of a channel (an ``EventChannel``'s `value`, or a channel a
    /// scripted saga gives), waiting while it is empty, as `take CH` does.
    ///
    /// ```swift
    /// let messages = try await saga.call("chat.connect", "general")
    /// while true {
    ///     let message = try await saga.take(from: messages)
    ///     try await saga.put("chat/received", ["message": message])
    /// }
    /// ```
    ///
    /// - Throws: ``Ended`` once the channel is closed and empty (or at END), or the error its
    ///   source failed with (see ``EventChannel/close(throwing:)``).
    @discardableResult
    public func take(from channel: Value) async throws -> Value {
        try await driver.perform(.takeFrom(channel))
    }

    /// Starts every effect, in order; the first to finish wins and the others are cancelled.
    ///
    /// ```swift
    /// let winner = try await saga.race(["done": .take("job/done"), "timeout": .delay(5_000)])
    /// if winner.key == "timeout" { … }
    /// ```
    public func race(_ entries: KeyValuePairs<String, SagaEffect>) async throws -> (key: String, value: Value) {
        try await race(entries.map { ($0.key, $0.value) })
    }

    /// Starts every effect, in order, and waits for all of them; the first error cancels the rest.
    public func all(_ entries: KeyValuePairs<String, SagaEffect>) async throws -> [String: Value] {
        try await all(entries.map { ($0.key, $0.value) })
    }

    /// ``race(_:)`` of entries in an array.
    func race(_ entries: [(String, SagaEffect)]) async throws -> (key: String, value: Value) {
        let result = try await driver.perform(.race(entries))
        guard case .record(let r) = result, let winner = r.first else { return ("", .null) }
        return (winner.key, winner.value)
    }

    /// ``all(_:)`` of entries in an array.
    func all(_ entries: [(String, SagaEffect)]) async throws -> [String: Value] {
        let result = try await driver.perform(.all(entries))
        guard case .record(let r) = result else { return [:] }
        return Dictionary(r.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// Dispatches an action (a record with a string `type`); returns once it is processed.
    public func put(_ action: Value) async throws {
        _ = try await driver.perform(.put(action))
    }

    /// Dispatches `{type, …fields}`.
    public func put(_ type: String, _ fields: Record = Record()) async throws {
        var r = fields
        r["type"] = .string(type)
        _ = try await driver.perform(.put(.record(r)))
    }

    /// The whole state.
    public func select() async throws -> Value {
        try await driver.perform(.select)
    }

    /// Waits `milliseconds` on the scheduler's clock (virtual time included).
    public func delay(_ milliseconds: Int) async throws {
        _ = try await driver.perform(.delay(milliseconds))
    }

    /// Calls a host function registered with the interpreter.
    @discardableResult
    public func call(_ name: String, _ arguments: Value...) async throws -> Value {
        try await driver.perform(.call(name, arguments))
    }

    /// Starts an attached child saga; returns its task handle.
    @discardableResult
    public func fork(_ saga: @escaping NativeSaga) async throws -> Value {
        try await driver.perform(.fork(saga))
    }

    /// Waits for a task to end; returns its result.
    @discardableResult
    public func join(_ task: Value) async throws -> Value {
        try await driver.perform(.join(task))
    }

    /// Cancels a task.
    public func cancel(_ task: Value) async throws {
        _ = try await driver.perform(.cancel(task))
    }
}

/// The meeting point of a native saga's Swift task and the scheduler: the saga posts an
/// effect and suspends; the scheduler, which awaits the post, performs the effect and later
/// resumes the saga with its result.
final class NativeDriver: Sendable {
    /// What the saga did last: asked for an effect, or ended.
    enum Event: Sendable {
        case effect(NativeEffect)
        case finished(Result<Void, SagaError>)
    }

    /// What an effect gives the saga: a value, or (for a typed `select`) the app's state.
    enum Outcome: Sendable {
        case value(Value)
        case snapshot(any Sendable)
    }

    private struct State {
        var event: Event?
        var scheduler: CheckedContinuation<Event, Never>?
        var saga: CheckedContinuation<Outcome, any Error>?
    }

    private let state = Mutex(State())

    /// Called by the saga: posts the effect and waits for its value.
    func perform(_ effect: NativeEffect) async throws -> Value {
        switch try await outcome(of: effect) {
        case .value(let value): return value
        case .snapshot: return .null
        }
    }

    /// Called by the saga: posts the effect and waits for what it gives.
    ///
    /// One effect at a time: a saga's effects used by a second Swift task while an effect is
    /// under way (a forked child's closure using its parent's `saga` rather than its own
    /// `child`) fail at once with ``misuse``, rather than take the first effect's place and
    /// leave it waiting for ever.
    func outcome(of effect: NativeEffect) async throws -> Outcome {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Outcome, any Error>) in
            let (waiter, busy) = state.withLock { s -> (CheckedContinuation<Event, Never>?, Bool) in
                if s.saga != nil { return (nil, true) }
                s.saga = c
                if let w = s.scheduler {
                    s.scheduler = nil
                    return (w, false)
                }
                s.event = .effect(effect)
                return (nil, false)
            }
            if busy {
                c.resume(throwing: Self.misuse)
                return
            }
            waiter?.resume(returning: .effect(effect))
        }
    }

    /// What an effect asked for while another of the same saga is under way throws.
    static let misuse = SagaError(
        kind: "NativeSagaError",
        message:
            "a saga's effects were used by two Swift tasks at once: a forked child must use the effects its closure is given, not its parent's"
    )

    /// Called when the saga's function returns or throws.
    func finish(_ result: Result<Void, SagaError>) {
        let waiter = state.withLock { s -> CheckedContinuation<Event, Never>? in
            if let w = s.scheduler {
                s.scheduler = nil
                return w
            }
            s.event = .finished(result)
            return nil
        }
        waiter?.resume(returning: .finished(result))
    }

    /// Called by the scheduler: waits for the saga's next effect or its end.
    func next(isolation: isolated (any Actor)? = #isolation) async -> Event {
        await withCheckedContinuation(isolation: isolation) { (c: CheckedContinuation<Event, Never>) in
            let ready = state.withLock { s -> Event? in
                if let e = s.event {
                    s.event = nil
                    return e
                }
                s.scheduler = c
                return nil
            }
            if let ready { c.resume(returning: ready) }
        }
    }

    /// Called by the scheduler: resumes the saga with the result of its effect.
    func resume(_ result: Result<Value, any Error>) {
        resume(outcome: result.map { .value($0) })
    }

    /// Called by the scheduler: resumes the saga with what its effect gave.
    func resume(outcome result: Result<Outcome, any Error>) {
        let saga = state.withLock { s -> CheckedContinuation<Outcome, any Error>? in
            defer { s.saga = nil }
            return s.saga
        }
        saga?.resume(with: result)
    }
}
