/// The interpreters a ``SagaMiddleware`` shows actions to: those whose `run()` is under way,
/// held strongly, and only then.
///
/// Each is added as its run starts and removed as it ends, both on the store's actor, where
/// the middleware reads the list; afterwards an interpreter may go away on any thread without
/// the store reaching for it. Not weak references: an object that is weakly referenced has its
/// reference counts moved to a side table, which makes every retain and release of the
/// interpreter, anywhere, several times dearer.
final class RunningInterpreters {
    /// Unchecked for exclusivity: read for every action, written as runs start and end, all
    /// on the store's actor.
    @exclusivity(unchecked) var list: [Interpreter] = []
}
