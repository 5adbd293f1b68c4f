import SagaCore

/// The variables visible while the checker walks a declaration: the declaration's own scope,
/// then one scope per enclosing block, innermost last.
///
/// One table maps each name to its innermost declaration, and each declaration remembers the
/// one it hides, so finding a name is one hash however deeply blocks nest. (A dictionary per
/// block, searched from the innermost out and then again to mark the use, was a fifth of
/// checking: callgrind, `sagabench parse-check`.) The table is a ``NameTable``, whose hash is
/// cheaper than a `Dictionary`'s; a name no longer visible stays in it with -1.
struct ScopeStack {
    /// What the checker knows about a declared variable.
    struct Entry {
        var name: String
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
        /// The entry of the same name this one hides, or -1.
        var hides = -1
        /// The name's ``NameTable/hash(_:)``, kept so that closing the scope need not hash it
        /// again.
        var hash: UInt64 = 0
    }

    /// Every visible declaration, in the order declared.
    private(set) var entries: [Entry] = []
    /// Each name's innermost visible entry, or -1 once no declaration of it is visible.
    private var innermost = NameTable()
    /// Where each open scope's entries start in ``entries``.
    private var starts: [Int] = []

    /// How many scopes are open.
    var depth: Int { starts.count }

    /// Forgets everything and opens the one scope of a new declaration.
    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
        innermost.removeAll()
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
    }

    /// Opens a block's scope.
    mutating func push() {
        starts.append(entries.count)
    }

    /// Closes the innermost scope and returns those of its entries that warn if unused and
    /// were never used, in the order they were declared; of a name declared twice in it (an
    /// error already reported), only the later declaration is returned.
    ///
    /// Only those entries are looked up again, not every entry of the scope: most variables
    /// are used (callgrind, `sagabench parse-check`).
    mutating func popUnused() -> [Entry] {
        guard let start = starts.popLast() else { return [] }
        var unused: [Entry] = []
        for index in start..<entries.count where entries[index].warnsIfUnused && !entries[index].used {
            if innermost.value(for: entries[index].name, hash: entries[index].hash) == index {
                unused.append(entries[index])
            }
        }
        while entries.count > start, let entry = entries.popLast() {
            innermost.set(entry.hides, for: entry.name, hash: entry.hash)
        }
        return unused
    }

    /// The index in ``entries`` of the innermost visible declaration of `name`.
    func lookup(_ name: String) -> Int? {
        guard let index = innermost.value(for: name), index >= 0 else { return nil }
        return index
    }

    /// The declaration of `name` in the innermost scope, if it has one.
    func declaredInInnermostScope(_ name: String) -> Entry? {
        guard let index = lookup(name), let start = starts.last, index >= start else { return nil }
        return entries[index]
    }

    /// Declares `entry` in the innermost scope; it hides any visible declaration of its name.
    mutating func declare(_ entry: Entry) {
        var entry = entry
        entry.hash = NameTable.hash(entry.name)
        entry.hides = innermost.value(for: entry.name, hash: entry.hash) ?? -1
        innermost.set(entries.count, for: entry.name, hash: entry.hash)
        entries.append(entry)
    }

    /// Notes that the declaration at `index` is used.
    mutating func markUsed(_ index: Int) {
        entries[index].used = true
    }

    /// Every visible name, for suggestions.
    var names: Set<String> {
        var names: Set<String> = []
        innermost.forEach { name, index in if index >= 0 { names.insert(name) } }
        return names
    }
}
