/// How large a string or list may grow: a program that doubles one in a loop (`s = s + s`)
/// fails with a `RangeError` instead of taking all memory, as JavaScript's "invalid string
/// length" does.
extension Value {
    /// The longest string (in UTF-8 bytes), and the longest canonical JSON text: 256 MiB.
    public static let maxTextBytes = 256 << 20
    /// The most elements a list may have: 16 Mi (above `Builtin.maxRange`).
    public static let maxListCount = 16 << 20

    /// Throws a `RangeError` if a string of `bytes` UTF-8 bytes would be too long.
    @inlinable
    public static func checkTextLength(_ bytes: Int) throws(SagaError) {
        guard bytes <= maxTextBytes else { throw textTooLong }
    }

    /// Throws a `RangeError` if a list of `count` elements would be too long.
    @inlinable
    public static func checkListCount(_ count: Int) throws(SagaError) {
        guard count <= maxListCount else {
            throw SagaError(kind: "RangeError", message: "a list may have at most \(maxListCount) elements")
        }
    }

    /// The error of a string or a JSON text past ``maxTextBytes``.
    public static var textTooLong: SagaError {
        SagaError(kind: "RangeError", message: "a string may be at most \(maxTextBytes >> 20) MiB long")
    }
}
