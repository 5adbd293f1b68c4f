/// Where the parser collects the items of a list whose length it does not know yet (a block's
/// statements, a call's arguments, a record's fields), so that the tree gets each list as an
/// array allocated once, at its exact size.
///
/// Lists nest (an argument holds a list holds a record), so the stack is shared: a list starts
/// at the stack's ``count`` (its mark), pushes its items, and ``take(from:)`` moves them out.
/// A list the parser gives up on leaves its items behind. They could not land in another list
/// (the parser recovers only at a statement or a declaration, where no list of this kind is
/// open, so every later list starts above them), but they would be kept until the file is
/// parsed: ``truncate(to:)``, from a `defer` at the mark, drops them.
///
/// Why not an array per list, as before: one reserved for four items is 32 + 4 × 24 bytes for
/// a record of one field, and one grown from empty is reallocated as it grows. With exact
/// arrays the tree of `sagabench parse-check` went from 18.5 to 16.3 bytes per source byte, and
/// its memory (the pages touched first, then freed) is what parse-check waits for most.
/// Items move in and out without being retained or released.
final class ScratchStack<Element> {
    private var slots: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many items the stack holds; a new list's mark.
    private(set) var count = 0

    init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Adds an item to the innermost list.
    @inline(__always)
    func push(_ item: consuming Element) {
        if count == capacity { grow() }
        (slots + count).initialize(to: item)
        count += 1
    }

    /// The items from `mark` on, as an array of exactly their count; the stack drops back to
    /// `mark`.
    func take(from mark: Int) -> [Element] {
        let n = count - mark
        guard n > 0 else { return [] }
        // (`Array(unsafeUninitializedCapacity:)` looked up the array's generic metadata at
        // every call, about 25 instructions a source byte; this path is specialised.)
        var items: [Element] = []
        items.reserveCapacity(n)
        for i in mark..<count { items.append((slots + i).move()) }
        count = mark
        return items
    }

    /// Drops the items from `mark` on (those of a list the parser gave up on).
    @inline(__always)
    func truncate(to mark: Int) {
        guard count > mark else { return }
        (slots + mark).deinitialize(count: count - mark)
        count = mark
    }

    private func grow() {
        let bigger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: slots, count: count)
        slots.deallocate()
        slots = bigger
        capacity *= 2
    }
}
