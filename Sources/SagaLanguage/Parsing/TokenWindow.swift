/// The parser's window of tokens: ``size`` slots, read and written by absolute token index
/// (taken modulo the size, so any index is in bounds).
///
/// A class with a buffer of its own: an `Array` checked its buffer for uniqueness at every
/// token written, and an `InlineArray`, fast when optimized, gave every recursive parser frame
/// kilobytes of temporary copies in a debug build, where deep nesting then overflowed the
/// stack of a test's thread.
final class TokenWindow {
    /// How many tokens the window holds (a power of two).
    static let size = 8

    private let slots: UnsafeMutablePointer<CompactToken>

    /// A window with every slot holding `token`.
    init(filledWith token: CompactToken) {
        slots = .allocate(capacity: TokenWindow.size)
        slots.initialize(repeating: token, count: TokenWindow.size)
    }

    deinit {
        slots.deinitialize(count: TokenWindow.size)
        slots.deallocate()
    }

    /// The token at absolute index `index`, in slot `index % size`.
    @inline(__always)
    subscript(index: Int) -> CompactToken {
        get { slots[index & (TokenWindow.size - 1)] }
        set { slots[index & (TokenWindow.size - 1)] = newValue }
    }
}
