import SagaCore

/// The variables visible while the checker walks a declaration: the declaration's own scope,
/// then one scope per enclosing block, innermost last.
///
/// One table maps each name to its innermost declaration, and each declaration remembers the
/// one it hides, so finding a name is one look-up however deeply blocks nest. (A dictionary per
/// block, searched from the innermost out and then again to mark the use, was a fifth of
/// checking: callgrind, `sagabench parse-check`.) Names are found by their number (see
/// ``NameInterner``), in an array, rather than hashed at each declaration, use and scope end.
struct ScopeStack {
    /// What the checker knows about a declared variable.
    ///
    /// Its name is kept as a number only: with no `String` in it, an entry is copied as plain
    /// bytes, not by an outlined copy that retains the name (callgrind, `sagabench parse-check`).
    struct Entry {
        /// The name's number in the checker's ``NameInterner``.
        var nameID: Int32
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
    }

    /// Every visible declaration, in the order declared.
    private(set) var entries: [Entry] = []
    /// By name number, the innermost visible entry of that name, or -1 when none is visible.
    private var innermost: [Int] = []
    /// Where each open scope's entries start in ``entries``.
    private var starts: [Int] = []

    /// How many scopes are open.
    var depth: Int { starts.count }

    /// Forgets everything and opens the one scope of a new declaration.
    mutating func reset() {
        // Only names of entries still open can have a visible entry: the others were put
        // back to what they hid when their scope closed. Emptied by popping, not by
        // `removeAll(keepingCapacity:)`, whose generic range replacement cost more than the
        // few entries left (callgrind, `sagabench parse-check`).
        while let entry = entries.popLast() { innermost[Int(entry.nameID)] = -1 }
        while starts.popLast() != nil {}
        starts.append(0)
    }

    /// Opens a block's scope.
    mutating func push() {
        starts.append(entries.count)
    }

    /// Closes the innermost scope and returns those of its entries that warn if unused and
    /// were never used, in the order they were declared; of a name declared twice in it (an
    /// error already reported), only the later declaration is returned.
    mutating func popUnused() -> [Entry] {
        guard let start = starts.popLast() else { return [] }
        var unused: [Entry] = []
        for index in start..<entries.count where entries[index].warnsIfUnused && !entries[index].used {
            if innermost[Int(entries[index].nameID)] == index {
                unused.append(entries[index])
            }
        }
        while entries.count > start, let entry = entries.popLast() {
            innermost[Int(entry.nameID)] = entry.hides
        }
        return unused
    }

    /// Closes the innermost scope, if one is open, without looking for unused entries.
    mutating func pop() {
        guard let start = starts.popLast() else { return }
        while entries.count > start, let entry = entries.popLast() {
            innermost[Int(entry.nameID)] = entry.hides
        }
    }

    /// The index in ``entries`` of the innermost visible declaration of the name numbered `id`.
    func lookup(_ id: Int32) -> Int? {
        guard id >= 0, Int(id) < innermost.count else { return nil }
        let index = innermost[Int(id)]
        return index >= 0 ? index : nil
    }

    /// The declaration of the name numbered `id` in the innermost scope, if it has one.
    func declaredInInnermostScope(_ id: Int32) -> Entry? {
        guard let index = lookup(id), let start = starts.last, index >= start else { return nil }
        return entries[index]
    }

    /// Declares `entry` (whose ``Entry/nameID`` is not negative) in the innermost scope; it
    /// hides any visible declaration of its name.
    mutating func declare(_ entry: Entry) {
        let id = Int(entry.nameID)
        guard id >= 0 else { return }
        if id >= innermost.count {
            innermost.append(contentsOf: repeatElement(-1, count: id + 1 - innermost.count))
        }
        var entry = entry
        entry.hides = innermost[id]
        innermost[id] = entries.count
        entries.append(entry)
    }

    /// Notes that the declaration at `index` is used.
    mutating func markUsed(_ index: Int) {
        entries[index].used = true
    }

    /// The number of every visible name, for suggestions.
    var visibleNameIDs: [Int32] {
        entries.indices.filter { innermost[Int(entries[$0].nameID)] == $0 }.map { entries[$0].nameID }
    }
}
