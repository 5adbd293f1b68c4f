extension Record {
    /// One key of a record and its value.
    ///
    /// A struct rather than a `(key:, value:)` tuple: freeing a record's entries would go
    /// through the runtime's generic tuple destroy, which reads the tuple's metadata for each
    /// element; a struct has a destroy function of its own.
    public struct Entry: Sendable {
        /// The key.
        public var key: String
        /// Its value.
        public var value: Value

        /// An entry.
        @inlinable
        public init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }
}
