/// The tokens the lexer has produced and the parser not yet left behind: a ring of slots, read
/// and written by absolute token index (taken modulo the capacity, so any index is in bounds).
///
/// The lexer fills it many tokens at a time (``Lexer/lex(until:keepingFrom:)``) and the parser
/// reads it, rather than asking the lexer for each token in turn, which would be a call into
/// the scanner, with its state loaded and stored again, and a hand-over through a field per
/// token.
///
/// A class with a buffer of its own: an `Array` checks its buffer for uniqueness at every
/// token written, and an `InlineArray`, fast when optimized, gives every recursive parser
/// frame kilobytes of temporary copies in a debug build, where deep nesting then overflows the
/// stack of a test's thread.
final class TokenWindow {
    /// How many tokens the window holds at first (a power of two).
    ///
    /// It grows when the tokens the parser still needs and those a scan step adds do not fit:
    /// a step that ends a refill may add several (the end of a line and of the file, or many
    /// open interpolations closing at once). It then keeps its new size.
    static let initialCapacity = 128

    private var slots: UnsafeMutablePointer<CompactToken>
    /// How many tokens the window holds (a power of two).
    private(set) var capacity: Int
    private var mask: Int

    /// A window with every slot holding `token`.
    init(filledWith token: CompactToken) {
        capacity = TokenWindow.initialCapacity
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: token, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The token at absolute index `index`, in slot `index % capacity`.
    @inline(__always)
    subscript(index: Int) -> CompactToken {
        get { slots[index & mask] }
        set { slots[index & mask] = newValue }
    }

    /// Doubles the capacity, keeping the tokens of `kept` (at most ``capacity`` of them) at
    /// their indices.
    func grow(keeping kept: Range<Int>) {
        let bigger = UnsafeMutablePointer<CompactToken>.allocate(capacity: capacity * 2)
        bigger.initialize(repeating: slots[0], count: capacity * 2)
        let biggerMask = capacity * 2 - 1
        for index in kept.suffix(capacity) {
            bigger[index & biggerMask] = slots[index & mask]
        }
        slots.deinitialize(count: capacity)
        slots.deallocate()
        slots = bigger
        capacity *= 2
        mask = biggerMask
    }
}
