/// The system calls of the file store, as a struct of closures: the one seam through which the
/// store touches the disk, so tests can inject faults (fail the N-th fsync, say) or count
/// calls.
///
/// ``posix`` is the real thing.
///
/// Each closure makes one call and throws a ``Failure`` carrying `errno` when it fails;
/// loops over partial writes and reads live in the store, not here.
///
/// ```swift
/// var fs = FileSystem.posix
/// let real = fs.fdatasync
/// fs.fdatasync = { fd throws(FileSystem.Failure) in
///     throw FileSystem.Failure(call: "fdatasync", errno: 5)  // EIO
/// }
/// let store = try FileStore.open(directory: dir, options: .init(fileSystem: fs))
/// ```
public struct FileSystem: Sendable {
    /// A failed system call: which one, its `errno`, and the path it was about.
    public struct Failure: Error, Sendable {
        /// The call's name, such as `"open"`, `"write"` or `"fdatasync"`.
        public var call: String
        /// The `errno` it set.
        public var errno: Int32
        /// The path involved, when the call takes one.
        public var path: String?

        /// Creates a failure.
        public init(call: String, errno: Int32, path: String? = nil) {
            self.call = call
            self.errno = errno
            self.path = path
        }
    }

    /// `open(path, flags, mode)`: a file descriptor.
    public var open: @Sendable (_ path: String, _ flags: Int32, _ mode: UInt32) throws(Failure) -> Int32
    /// `close(fd)`; errors are ignored (the descriptor is gone either way).
    public var close: @Sendable (_ fd: Int32) -> Void
    /// `pread(fd, buffer, offset)`: the number of bytes read, 0 at the end.
    public var read:
        @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) throws(Failure) -> Int
    /// `write(fd, bytes)`: the number of bytes written (possibly fewer than given).
    public var write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int
    /// `fsync(fd)`: data and metadata (used for new files and folders).
    public var fsync: @Sendable (_ fd: Int32) throws(Failure) -> Void
    /// `fdatasync(fd)`: data (used to commit appended log records).
    public var fdatasync: @Sendable (_ fd: Int32) throws(Failure) -> Void
    /// `ftruncate(fd, length)`.
    public var ftruncate: @Sendable (_ fd: Int32, _ length: Int64) throws(Failure) -> Void
    /// `lseek(fd, 0, SEEK_END)`: the file's size, leaving the offset at the end.
    public var seekToEnd: @Sendable (_ fd: Int32) throws(Failure) -> Int64
    /// `rename(from, to)`.
    public var rename: @Sendable (_ from: String, _ to: String) throws(Failure) -> Void
    /// `unlink(path)`.
    public var unlink: @Sendable (_ path: String) throws(Failure) -> Void
    /// `flock(fd, operation)`.
    public var flock: @Sendable (_ fd: Int32, _ operation: Int32) throws(Failure) -> Void
    /// `mkdir(path, 0o755)`; an existing folder is not an error.
    public var makeDirectory: @Sendable (_ path: String) throws(Failure) -> Void
    /// The names in a folder (without `.` and `..`).
    public var listDirectory: @Sendable (_ path: String) throws(Failure) -> [String]
    /// Whether `path` names a regular file (`stat`, following a symbolic link): a store's
    /// files must be, or reading one could block (a FIFO) or fail strangely (a folder).
    public var isRegularFile: @Sendable (_ path: String) throws(Failure) -> Bool

    /// A file system of the given calls (every one required; start from ``posix`` to change a few).
    public init(
        open: @escaping @Sendable (_ path: String, _ flags: Int32, _ mode: UInt32) throws(Failure) -> Int32,
        close: @escaping @Sendable (_ fd: Int32) -> Void,
        read:
            @escaping @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int64) throws(Failure)
            -> Int,
        write: @escaping @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int,
        fsync: @escaping @Sendable (_ fd: Int32) throws(Failure) -> Void,
        fdatasync: @escaping @Sendable (_ fd: Int32) throws(Failure) -> Void,
        ftruncate: @escaping @Sendable (_ fd: Int32, _ length: Int64) throws(Failure) -> Void,
        seekToEnd: @escaping @Sendable (_ fd: Int32) throws(Failure) -> Int64,
        rename: @escaping @Sendable (_ from: String, _ to: String) throws(Failure) -> Void,
        unlink: @escaping @Sendable (_ path: String) throws(Failure) -> Void,
        flock: @escaping @Sendable (_ fd: Int32, _ operation: Int32) throws(Failure) -> Void,
        makeDirectory: @escaping @Sendable (_ path: String) throws(Failure) -> Void,
        listDirectory: @escaping @Sendable (_ path: String) throws(Failure) -> [String],
        isRegularFile: @escaping @Sendable (_ path: String) throws(Failure) -> Bool = FileSystem.statIsRegularFile
    ) {
        self.open = open
        self.close = close
        self.read = read
        self.write = write
        self.fsync = fsync
        self.fdatasync = fdatasync
        self.ftruncate = ftruncate
        self.seekToEnd = seekToEnd
        self.rename = rename
        self.unlink = unlink
        self.flock = flock
        self.makeDirectory = makeDirectory
        self.listDirectory = listDirectory
        self.isRegularFile = isRegularFile
    }
}
