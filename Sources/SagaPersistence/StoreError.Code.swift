extension StoreError {
    /// The kind of a ``StoreError``: compare with the static members (`error.code == .locked`).
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short name of the code, such as `"locked"`.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// The element is not a record with a string or integer `id`, or cannot be stored.
        public static let invalidElement = Code("invalidElement")
        /// The query is malformed (an unknown operator, a negative limit, …).
        public static let invalidQuery = Code("invalidQuery")
        /// Another open handle (in this or another process) holds the store's lock.
        public static let locked = Code("locked")
        /// The store's files hold bytes that are not a valid store, and not a torn tail.
        public static let corrupt = Code("corrupt")
        /// There is no store: the folder holds no log segment and no snapshot, or is not there.
        public static let missing = Code("missing")
        /// A system call failed (open, write, fsync, rename, …).
        public static let io = Code("io")
        /// The store was written by a newer format version than this program reads.
        public static let newerFormat = Code("newerFormat")
        /// The store handle was closed.
        public static let closed = Code("closed")

        /// The short name.
        public var description: String { name }
    }
}

/// A code is its name in JSON: `"locked"`.
extension StoreError.Code: Codable {
    /// The code named by a string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// The code's name, as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
