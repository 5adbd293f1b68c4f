extension StoreReport {
    /// One file of a store, as verification read it.
    public struct File: Sendable, Equatable {
        /// A log segment or a snapshot.
        public enum Kind: String, Sendable {
            case log
            case snapshot
        }

        /// The file's name in the store's folder.
        public var name: String
        public var kind: Kind
        /// Its size.
        public var bytes: Int
        /// Records for a log segment (the valid ones), elements for a snapshot.
        public var count: Int
        /// The last record it covers.
        public var lastSequence: UInt64

        /// Describes a file.
        public init(name: String, kind: Kind, bytes: Int, count: Int, lastSequence: UInt64) {
            self.name = name
            self.kind = kind
            self.bytes = bytes
            self.count = count
            self.lastSequence = lastSequence
        }
    }
}
