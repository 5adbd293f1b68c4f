/// The brackets the parser has consumed and not yet closed, innermost last: where a broken
/// statement's recovery looks to know which closers to skip
/// (``Parser/synchronizeStatement(openBefore:)``).
///
/// A class with a buffer of its own, like ``TokenWindow``: every `(`, `[` and `{` is pushed
/// and every closer pops, and as an `Array` of the parser each push and pop would check the
/// buffer for uniqueness.
final class BracketStack {
    /// An open bracket: a brace or not, and the line it is on.
    struct Bracket {
        var isBrace: Bool
        var line: Int32
    }

    private var slots: UnsafeMutablePointer<Bracket>
    private var capacity: Int
    /// How many brackets are open.
    private(set) var count = 0

    init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
    }

    deinit {
        slots.deallocate()
    }

    /// Opens a bracket.
    @inline(__always)
    func push(isBrace: Bool, line: Int32) {
        if count == capacity { grow() }
        (slots + count).initialize(to: Bracket(isBrace: isBrace, line: line))
        count += 1
    }

    /// Closes the innermost bracket, if any.
    @inline(__always)
    func pop() {
        if count > 0 { count -= 1 }
    }

    /// Closes every bracket above the first `height`.
    func truncate(to height: Int) {
        if count > height { count = max(height, 0) }
    }

    /// How many of the brackets above the first `height` are braces and how many are not,
    /// counting only those on `line`.
    func open(above height: Int, onLine line: Int32) -> (braces: Int, brackets: Int) {
        var braces = 0
        var brackets = 0
        var i = max(height, 0)
        while i < count {
            let bracket = slots[i]
            if bracket.line == line {
                if bracket.isBrace { braces += 1 } else { brackets += 1 }
            }
            i += 1
        }
        return (braces, brackets)
    }

    /// Doubles the buffer.
    private func grow() {
        let bigger = UnsafeMutablePointer<Bracket>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: slots, count: count)
        slots.deallocate()
        slots = bigger
        capacity *= 2
    }
}
