import SagaCore

/// The variables visible while the checker walks a declaration: the declaration's own scope,
/// then one scope per enclosing block, innermost last.
///
/// One table maps each name to its innermost declaration, and each declaration remembers the
/// one it hides, so finding a name is one look-up however deeply blocks nest (a dictionary per
/// block would be searched from the innermost out, and then again to mark the use). Names are
/// found by their number (see ``NameInterner``), in an array, rather than hashed at each
/// declaration, use and scope end.
///
/// A class with buffers of its own, like ``BracketStack``: as three `Array`s, every
/// declaration, use and scope end would check a buffer for uniqueness and an index against its
/// bounds, dozens of times for each function and saga, where the parser (planning slots) and
/// the checker each keep a stack. The entries hold no references, so the buffers are plain
/// memory. Its fields are unchecked for exclusivity (only the one parser or checker that owns
/// a stack uses it, never across an access of its own): checked, each access of a field would
/// be a call into the runtime.
final class ScopeStack {
    /// What the checker knows about a declared variable.
    ///
    /// Its name is kept as a number only: with no `String` in it, an entry is copied as plain
    /// bytes, not by an outlined copy that retains the name.
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
        /// Whether it is a `let` made by `channel` or `actionChannel`, so that it always holds
        /// a channel.
        var holdsChannel = false
        /// The entry of the same name this one hides, or -1.
        var hides = -1
    }

    /// Every visible declaration, in the order declared.
    @exclusivity(unchecked) private var entries: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var entryCapacity = 16
    /// How many declarations are visible.
    @exclusivity(unchecked) private(set) var count = 0
    /// By name number, the innermost visible entry of that name, or -1 when none is visible;
    /// ``knownNames`` numbers are covered.
    @exclusivity(unchecked) private var innermost: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var knownNames = 0
    @exclusivity(unchecked) private var innermostCapacity = 64
    /// Where each open scope's entries start in ``entries``.
    @exclusivity(unchecked) private var starts: UnsafeMutablePointer<Int>
    @exclusivity(unchecked) private var startCapacity = 16
    /// How many scopes are open.
    @exclusivity(unchecked) private(set) var depth = 0

    init() {
        entries = .allocate(capacity: entryCapacity)
        innermost = .allocate(capacity: innermostCapacity)
        starts = .allocate(capacity: startCapacity)
    }

    deinit {
        entries.deallocate()
        innermost.deallocate()
        starts.deallocate()
    }

    /// Forgets everything and opens the one scope of a new declaration.
    func reset() {
        // Only names of entries still open can have a visible entry: the others were put
        // back to what they hid when their scope closed.
        while count > 0 {
            count -= 1
            innermost[Int(entries[count].nameID)] = -1
        }
        depth = 0
        push()
    }

    /// Opens a block's scope.
    @inline(__always)
    func push() {
        if depth == startCapacity { starts = Self.grown(starts, count: depth, to: &startCapacity) }
        (starts + depth).initialize(to: count)
        depth += 1
    }

    /// Closes the innermost scope and returns those of its entries that warn if unused and
    /// were never used, in the order they were declared; of a name declared twice in it (an
    /// error already reported), only the later declaration is returned.
    func popUnused() -> [Entry] {
        guard depth > 0 else { return [] }
        let start = starts[depth - 1]
        var unused: [Entry] = []
        for index in start..<count where entries[index].warnsIfUnused && !entries[index].used {
            if innermost[Int(entries[index].nameID)] == index {
                unused.append(entries[index])
            }
        }
        pop()
        return unused
    }

    /// Whether the innermost scope has an entry that warns if unused and is not used (which
    /// ``popUnused()`` would return, or one it hides).
    var innermostHasUnused: Bool {
        guard depth > 0 else { return false }
        var index = starts[depth - 1]
        while index < count {
            if entries[index].warnsIfUnused && !entries[index].used { return true }
            index += 1
        }
        return false
    }

    /// Closes the innermost scope, if one is open, without looking for unused entries.
    @inline(__always)
    func pop() {
        guard depth > 0 else { return }
        depth -= 1
        let start = starts[depth]
        while count > start {
            count -= 1
            innermost[Int(entries[count].nameID)] = entries[count].hides
        }
    }

    /// The index of the innermost visible declaration of the name numbered `id`.
    func lookup(_ id: Int32) -> Int? {
        guard id >= 0, Int(id) < knownNames else { return nil }
        let index = innermost[Int(id)]
        return index >= 0 ? index : nil
    }

    /// The visible declaration at `index` (below ``count``), as ``lookup(_:)`` gives it.
    @inline(__always)
    func entry(at index: Int) -> Entry {
        guard index >= 0, index < count else {
            return Entry(nameID: -1, slot: -1, isMutable: false, taskDepth: 0, location: .unknown)
        }
        return entries[index]
    }

    /// The declaration of the name numbered `id` in the innermost scope, if it has one.
    func declaredInInnermostScope(_ id: Int32) -> Entry? {
        guard let index = lookup(id), depth > 0, index >= starts[depth - 1] else { return nil }
        return entries[index]
    }

    /// Declares `entry` (whose ``Entry/nameID`` is not negative) in the innermost scope; it
    /// hides any visible declaration of its name.
    func declare(_ entry: Entry) {
        let id = Int(entry.nameID)
        guard id >= 0 else { return }
        if id >= knownNames { coverNames(through: id) }
        if count == entryCapacity { entries = Self.grown(entries, count: count, to: &entryCapacity) }
        var entry = entry
        entry.hides = innermost[id]
        innermost[id] = count
        (entries + count).initialize(to: entry)
        count += 1
    }

    /// Notes that the declaration at `index` (below ``count``) is used.
    func markUsed(_ index: Int) {
        guard index >= 0, index < count else { return }
        entries[index].used = true
    }

    /// The number of every visible name, for suggestions.
    var visibleNameIDs: [Int32] {
        (0..<count).filter { innermost[Int(entries[$0].nameID)] == $0 }.map { entries[$0].nameID }
    }

    /// Makes room in ``innermost`` for names numbered up to `id`, none of them visible.
    private func coverNames(through id: Int) {
        if id >= innermostCapacity {
            var capacity = innermostCapacity
            while id >= capacity { capacity *= 2 }
            let bigger = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            bigger.moveInitialize(from: innermost, count: knownNames)
            innermost.deallocate()
            innermost = bigger
            innermostCapacity = capacity
        }
        (innermost + knownNames).initialize(repeating: -1, count: id + 1 - knownNames)
        knownNames = id + 1
    }

    /// A buffer twice the size of `buffer`, holding its first `count` elements; `buffer` is
    /// deallocated.
    private static func grown<Element>(
        _ buffer: UnsafeMutablePointer<Element>, count: Int, to capacity: inout Int
    ) -> UnsafeMutablePointer<Element> {
        capacity *= 2
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
        bigger.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        return bigger
    }
}
