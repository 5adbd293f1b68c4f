import SagaCore

/// What `state` and `it` read while an ``Evaluator`` runs where they may be read. Its owner
/// (the interpreter, the reducer runner) keeps one and sets it around each such evaluation;
/// evaluation never re-enters, so one is enough.
final class EvaluationScope {
    /// The state, inside `select` and reducers.
    var state: Value?
    /// The action bound to `it` in a `take … where` condition.
    var it: Value?
}
