extension StoreReport {
    /// Something opening the store repairs on its own: a torn tail (cut, its bytes kept in a
    /// file of their own), a leftover of an interrupted snapshot (removed); or such a file of
    /// kept bytes.
    public struct Warning: Sendable, Equatable, CustomStringConvertible {
        /// What it is and what opening does about it.
        public var message: String
        /// The file it is about.
        public var path: String
        /// The byte offset in `path`, if any.
        public var offset: Int?

        /// Creates a warning.
        public init(_ message: String, path: String, offset: Int? = nil) {
            self.message = message
            self.path = path
            self.offset = offset
        }

        /// The message, then the file and offset, as ``StoreError`` prints them.
        public var description: String {
            StoreError(.io, message, path: path, offset: offset).description
        }
    }
}
