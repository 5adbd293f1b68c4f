extension FileStore {
    /// How a ``FileStore`` behaves: when it compacts, and which system calls it makes.
    public struct Options: Sendable {
        /// The size in bytes of log records after which the store writes a snapshot and starts
        /// a new log segment.
        ///
        /// Default: 64 MiB.
        public var snapshotThreshold: Int
        /// The system calls; tests replace some to count calls or inject faults.
        public var fileSystem: FileSystem
        /// How many bytes of zeros the log is extended by ahead of its records, so that a
        /// commit overwrites instead of growing the file (cheaper to sync); 0 appends.
        ///
        /// Default: 1 MiB.
        public var preallocation: Int

        /// Options with the given threshold, file system and preallocation.
        public init(snapshotThreshold: Int = 64 << 20, fileSystem: FileSystem = .posix, preallocation: Int = 1 << 20) {
            self.snapshotThreshold = snapshotThreshold
            self.fileSystem = fileSystem
            self.preallocation = preallocation
        }
    }
}
