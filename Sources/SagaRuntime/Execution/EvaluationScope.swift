import SagaCore

/// What `state` and `it` read while an ``Evaluator`` runs where they may be read.
///
/// Its owner (the interpreter, the reducer runner) keeps one and sets it around each such
/// evaluation; evaluation never re-enters, so one is enough. Its fields are unchecked for
/// exclusivity: they are only ever set or read whole, never accessed in overlap.
final class EvaluationScope {
    /// The state, inside `select` and reducers.
    @exclusivity(unchecked) var state: Value?
    /// The action bound to `it` in a `take … where` condition.
    @exclusivity(unchecked) var it: Value?
}
