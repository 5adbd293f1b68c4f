#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// The real system calls.
    ///
    /// Calls interrupted by a signal (EINTR) are retried here.
    public static let posix = FileSystem(
        open: { (path, flags, mode) throws(Failure) -> Int32 in
            while true {
                let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
                if fd >= 0 { return fd }
                if errno != EINTR { throw Failure(call: "open", errno: errno, path: path) }
            }
        },
        close: { fd in _ = Glibc.close(fd) },
        read: { (fd, buffer, offset) throws(Failure) -> Int in
            while true {
                let n = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
                if n >= 0 { return n }
                if errno != EINTR { throw Failure(call: "read", errno: errno) }
            }
        },
        write: { (fd, bytes) throws(Failure) -> Int in
            while true {
                let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
                if n >= 0 { return n }
                if errno != EINTR { throw Failure(call: "write", errno: errno) }
            }
        },
        fsync: { (fd) throws(Failure) in
            if Glibc.fsync(fd) != 0 { throw Failure(call: "fsync", errno: errno) }
        },
        fdatasync: { (fd) throws(Failure) in
            if Glibc.fdatasync(fd) != 0 { throw Failure(call: "fdatasync", errno: errno) }
        },
        ftruncate: { (fd, length) throws(Failure) in
            while Glibc.ftruncate(fd, off_t(length)) != 0 {
                if errno != EINTR { throw Failure(call: "ftruncate", errno: errno) }
            }
        },
        seekToEnd: { (fd) throws(Failure) -> Int64 in
            let end = lseek(fd, 0, SEEK_END)
            if end < 0 { throw Failure(call: "lseek", errno: errno) }
            return Int64(end)
        },
        rename: { (from, to) throws(Failure) in
            if Glibc.rename(from, to) != 0 { throw Failure(call: "rename", errno: errno, path: to) }
        },
        unlink: { (path) throws(Failure) in
            if Glibc.unlink(path) != 0 { throw Failure(call: "unlink", errno: errno, path: path) }
        },
        flock: { (fd, operation) throws(Failure) in
            // The name is also the `struct flock`'s; the type picks the function.
            let lock: (Int32, Int32) -> Int32 = flock(_:_:)
            while lock(fd, operation) != 0 {
                if errno != EINTR { throw Failure(call: "flock", errno: errno) }
            }
        },
        makeDirectory: { (path) throws(Failure) in
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                throw Failure(call: "mkdir", errno: errno, path: path)
            }
        },
        listDirectory: { (path) throws(Failure) -> [String] in
            guard let dir = opendir(path) else { throw Failure(call: "opendir", errno: errno, path: path) }
            defer { closedir(dir) }
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            return names
        }
    )
}

extension FileSystem {
    /// ``isRegularFile`` by `stat(2)`.
    public static let statIsRegularFile: @Sendable (_ path: String) throws(Failure) -> Bool = {
        (path) throws(Failure) -> Bool in
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(call: "stat", errno: errno, path: path) }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
