import SagaCore

/// What `state` reads while an ``Evaluator`` runs where it may be read.
///
/// Its owner (the interpreter, the reducer runner) keeps one and sets it around each such
/// evaluation; evaluation never re-enters, so one is enough. Its fields are unchecked for
/// exclusivity: they are only ever set or read whole, never accessed in overlap.
final class EvaluationScope {
    /// The state, inside `select`.
    @exclusivity(unchecked) var state: Value?
}
