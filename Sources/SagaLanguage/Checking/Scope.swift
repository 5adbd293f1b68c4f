import SagaCore

/// One block's variables while the checker walks a declaration.
///
/// Scopes nest as blocks do; a name found in an inner scope hides the same name outside it.
struct Scope {
    /// What the checker knows about a declared variable.
    struct Entry {
        /// The frame slot the variable was given.
        var slot: Int
        /// `var` (and function parameters) are mutable; `let` and every binding (`as a`,
        /// `catch e`, `for x`) are not.
        var isMutable: Bool
        /// How many task boundaries (fork, spawn, watcher, compensate blocks) enclose the
        /// declaration: a block across such a boundary holds a copy, so it may not assign.
        var taskDepth: Int
        /// Where it was declared, for notes.
        var location: SourceLocation
        /// Whether it is read (or assigned) anywhere in its scope.
        var used = false
        /// Whether to warn when it is never used: a `let`/`var` of a plain expression whose
        /// name does not start with `_` (a variable holding an effect's result is fine unused).
        var warnsIfUnused = false
    }

    /// The variables declared directly in this scope.
    var entries: [String: Entry] = [:]
}
