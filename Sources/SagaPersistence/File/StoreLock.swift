#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive lock that gives a store's files to one open handle at a time: `flock`
/// (LOCK_EX|LOCK_NB) on the folder's `LOCK` file, which then holds the owner's pid.
///
/// `flock` belongs to the open file description, so a second open in the same process
/// conflicts too, and the lock goes away with the process.
enum StoreLock {
    /// Takes the lock and writes our pid into the lock file.
    ///
    /// - Returns: The lock file's descriptor; closing it releases the lock.
    /// - Throws: `.locked`, naming the holder's pid, when another handle holds it.
    static func acquire(_ dir: StoreDirectory) throws(StoreError) -> Int32 {
        let fd = try dir.open(StoreFormat.lockName, O_RDWR | O_CREAT)
        let lockPath = dir.path(of: StoreFormat.lockName)
        do {
            try lockBriefly(dir, fd)
        } catch {
            defer { dir.fs.close(fd) }
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN {
                throw inUse(dir, fd)
            }
            throw error.storeError(path: lockPath)
        }
        do throws(StoreError) {
            do { try dir.fs.ftruncate(fd, 0) } catch { throw error.storeError(path: lockPath) }
            let text = Array("\(getpid())\n".utf8)
            try dir.writeAll(fd, text, name: StoreFormat.lockName)
            // The lock file may be new: make its name durable like any other file's.
            try dir.sync()
        } catch {
            dir.fs.close(fd)
            throw error
        }
        return fd
    }

    /// `flock(LOCK_EX | LOCK_NB)`, tried a few times over about 50 ms before giving up.
    ///
    /// A lock just released can still be held for a moment by a copy of its descriptor: a
    /// process spawned by another thread holds copies of every descriptor until it calls
    /// `exec` (O_CLOEXEC closes them only then). Without the retry, a store closed and
    /// reopened at once in a process that also starts programs was reported in use by
    /// itself, now and then (seen in the test suite under load).
    private static func lockBriefly(_ dir: StoreDirectory, _ fd: Int32) throws(FileSystem.Failure) {
        var attempt = 0
        while true {
            do {
                return try dir.fs.flock(fd, LOCK_EX | LOCK_NB)
            } catch {
                attempt += 1
                guard attempt < 10, error.errno == EWOULDBLOCK || error.errno == EAGAIN else { throw error }
                usleep(5_000)
            }
        }
    }

    /// Takes the lock shared, for a reader that changes nothing (`sagarun store verify`):
    /// no writer can open the store meanwhile, and the lock file is neither created nor
    /// written, so a read-only folder can be verified.
    ///
    /// - Returns: The lock file's descriptor, or nil when there is no lock file (no writer
    ///   has ever opened the store, and none holds it).
    /// - Throws: `.locked`, naming the holder's pid, when a writer holds the store.
    static func acquireShared(_ dir: StoreDirectory) throws(StoreError) -> Int32? {
        let lockPath = dir.path(of: StoreFormat.lockName)
        let fd: Int32
        do {
            fd = try dir.fs.open(lockPath, O_RDONLY, 0)
        } catch {
            if error.errno == ENOENT { return nil }
            throw error.storeError(path: lockPath)
        }
        do {
            try dir.fs.flock(fd, LOCK_SH | LOCK_NB)
        } catch {
            defer { dir.fs.close(fd) }
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN { throw inUse(dir, fd) }
            throw error.storeError(path: lockPath)
        }
        return fd
    }

    /// The error for a lock held by someone else, naming the process in the lock file when
    /// it is still running. A shared holder (a verifier) writes no pid, so the file may
    /// name an earlier writer that has exited.
    private static func inUse(_ dir: StoreDirectory, _ fd: Int32) -> StoreError {
        let holder = (try? holderPID(dir, fd)).flatMap { $0 }
        let who: String
        if let holder, holder > 0, holder <= Int(Int32.max), kill(pid_t(holder), 0) == 0 || errno == EPERM {
            who = "process \(holder)"
        } else {
            who = "another process (perhaps a `sagarun store verify`)"
        }
        return StoreError(
            .locked, "the store at \(dir.path) is in use by \(who)", path: dir.path(of: StoreFormat.lockName))
    }

    /// The pid written in the lock file, if it reads as one.
    private static func holderPID(_ dir: StoreDirectory, _ fd: Int32) throws(StoreError) -> Int? {
        let bytes = try dir.readAll(fd, name: StoreFormat.lockName)
        return Int(String(decoding: bytes.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self))
    }
}
