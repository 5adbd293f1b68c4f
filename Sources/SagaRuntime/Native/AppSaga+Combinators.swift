import SagaCore

extension AppSaga {
    /// An effect a typed saga's ``race(_:)`` or ``all(_:)`` starts as one of its entries, in
    /// the app's types.
    public enum Effect: Sendable {
        /// `take` of an action whose type matches one of the patterns (exact, a glob with `*`,
        /// or `*`).
        case take([String])
        /// `delay` of this many milliseconds on the interpreter's clock.
        case delay(Int)
        /// `put` of the app's action.
        case put(Action)
        /// `call` of a host function registered with the interpreter.
        case call(String, [Value])

        /// `take` of an action whose type matches one of `patterns` (every action by default).
        public static func take(_ patterns: String...) -> Effect { .take(patterns.isEmpty ? ["*"] : patterns) }
    }

    /// What one entry of a ``race(_:)`` or ``all(_:)`` gave: an action for a `take` or a `put`,
    /// `true` for a `delay`, a host function's result for a `call`.
    public struct Outcome: Sendable {
        /// The entry's value, as the language's `race` and `all` give it.
        public let value: Value
        let bridge: any SagaBridge<State, Action>

        /// The value as the app's action: a `take`'s or a `put`'s.
        ///
        /// - Throws: a `TypeError` when the bridge has no app action for the value.
        public func action() throws -> Action {
            try bridge.action(from: value)
        }

        /// The value decoded as `T`: a `call`'s result.
        ///
        /// - Throws: a `HostError` when the value does not decode as `T`.
        public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
            do {
                return try value.decode(as: T.self)
            } catch {
                throw SagaError(
                    kind: "HostError",
                    message: "\(value.canonicalJSON) is not \(String(describing: T.self).withIndefiniteArticle)")
            }
        }
    }

    /// Starts every entry, in order, as `race` does: the first to finish wins.
    ///
    /// The others are cancelled. Gives the winner's key and what it gave.
    ///
    /// ```swift
    /// let (key, outcome) = try await saga.race(["done": .take("jobDone"), "timeout": .delay(5_000)])
    /// if key == "done", case .jobDone(let id) = try outcome.action() { … }
    /// ```
    ///
    /// - Throws: the error the first entry to fail failed with; a `TypeError` when the bridge
    ///   keeps a `put` entry's action from sagas.
    public func race(_ entries: KeyValuePairs<String, Effect>) async throws -> (key: String, outcome: Outcome) {
        let winner = try await effects.race(try untyped(entries))
        return (winner.key, Outcome(value: winner.value, bridge: bridge))
    }

    /// Starts every entry, in order, and waits for all of them, as `all` does.
    ///
    /// The first error cancels the rest. Gives what each entry gave, by its key.
    ///
    /// - Throws: the first error an entry failed with; a `TypeError` when the bridge keeps a
    ///   `put` entry's action from sagas.
    public func all(_ entries: KeyValuePairs<String, Effect>) async throws -> [String: Outcome] {
        let values = try await effects.all(try untyped(entries))
        return values.mapValues { Outcome(value: $0, bridge: bridge) }
    }

    /// Takes the oldest message of a channel (an ``EventChannel``'s `value`, or a channel a
    /// typed `call` gives), waiting while it is empty, as `take CH` does.
    ///
    /// - Throws: ``SagaEffects/Ended`` once the channel is closed and empty (or at END), or
    ///   the error its source failed with.
    @discardableResult
    public func take(from channel: Value) async throws -> Value {
        try await effects.take(from: channel)
    }

    /// The entries as the untyped effects take them.
    private func untyped(_ entries: KeyValuePairs<String, Effect>) throws -> [(String, SagaEffect)] {
        var pairs: [(String, SagaEffect)] = []
        for (key, effect) in entries {
            switch effect {
            case .take(let patterns): pairs.append((key, .take(patterns)))
            case .delay(let milliseconds): pairs.append((key, .delay(milliseconds)))
            case .call(let name, let arguments): pairs.append((key, .call(name, arguments)))
            case .put(let action):
                guard let value = bridge.value(of: action) else {
                    throw SagaError.typeError("the saga bridge shows no value for \(action), so a saga cannot put it")
                }
                pairs.append((key, .put(value)))
            }
        }
        return pairs
    }
}
