extension FileStore {
    /// How a ``FileStore`` behaves: when it compacts, and which system calls it makes.
    public struct Options: Sendable {
        /// The size in bytes of log records after which the store writes a snapshot and
        /// starts a new log segment. Default: 64 MiB.
        public var snapshotThreshold: Int
        /// The system calls; tests replace some to count calls or inject faults.
        public var fileSystem: FileSystem

        /// Options with the given threshold and file system.
        public init(snapshotThreshold: Int = 64 << 20, fileSystem: FileSystem = .posix) {
            self.snapshotThreshold = snapshotThreshold
            self.fileSystem = fileSystem
        }
    }
}
