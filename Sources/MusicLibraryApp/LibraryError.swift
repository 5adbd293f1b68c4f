/// Why the library cannot open: its folder is locked by another process, unreadable or
/// corrupt, or (a bug) its sagas do not compile.
public struct LibraryError: Error, Sendable, CustomStringConvertible {
    /// A sentence for the user.
    public var message: String

    /// An error with this message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
