import SagaCore
import SagaLanguage

/// Builds the plain statements that the entries of `race`/`all` stand for, so that one engine
/// runs them all (a watcher's and a `retry`'s loops are built by the checker: ``WatcherLoop``,
/// ``RetryLoop``).
///
/// Hidden variables take slots past the end of the copied frame.
enum Desugar {
    /// A body that performs `effect` and returns its value, kept in the variable in `slot`
    /// (past the end of the frame it runs over).
    static func effectTask(_ effect: Effect, slot: Int, at loc: SourceLocation) -> Block {
        let result = Variable(name: "result", slot: slot, location: loc)
        return Block(
            statements: [
                .declare(result, isMutable: false, .effect(effect), loc),
                .return(.variable(result), loc),
            ], location: loc)
    }
}
