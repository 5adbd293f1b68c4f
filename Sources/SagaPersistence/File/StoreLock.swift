#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The exclusive lock that gives a store's files to one open handle at a time: `flock`
/// (LOCK_EX|LOCK_NB) on the store's folder itself, then on its `LOCK` file, which then holds
/// the owner's pid.
///
/// The folder's lock holds whatever happens to the files in it: a `LOCK` file deleted while a
/// run holds the store lets no second process in (as it would, were the file the only lock).
/// `flock` belongs to the open file description, so a second open in the same process
/// conflicts too, and the lock goes away with the process.
enum StoreLock {
    /// The descriptors that hold a store's lock; closing them releases it.
    struct Held {
        /// The folder's descriptor, locked.
        var folder: Int32
        /// The `LOCK` file's descriptor, locked too, if it was opened.
        var file: Int32?

        /// Releases the lock.
        func release(_ fs: FileSystem) {
            if let file { fs.close(file) }
            fs.close(folder)
        }
    }

    /// Takes the lock and writes our pid into the lock file.
    ///
    /// A refused open changes nothing: the folder's lock is tried before the lock file is
    /// opened or created.
    ///
    /// - Returns: The descriptors that hold the lock.
    /// - Throws: `.locked`, naming the holder's pid, when another handle holds it.
    static func acquire(_ dir: StoreDirectory) throws(StoreError) -> Held {
        let folder = try lockFolder(dir, LOCK_EX)
        let lockPath = dir.path(of: StoreFormat.lockName)
        let fd: Int32
        do {
            fd = try dir.open(StoreFormat.lockName, O_RDWR | O_CREAT)
        } catch {
            dir.fs.close(folder)
            throw error
        }
        do {
            try lockBriefly(dir, fd, LOCK_EX)
        } catch {
            defer {
                dir.fs.close(fd)
                dir.fs.close(folder)
            }
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
            dir.fs.close(folder)
            throw error
        }
        return Held(folder: folder, file: fd)
    }

    /// Locks the store's folder itself (`operation`: LOCK_EX or LOCK_SH).
    ///
    /// - Returns: the folder's descriptor, which holds the lock.
    /// - Throws: `.locked` when another handle holds it in a way that conflicts.
    private static func lockFolder(_ dir: StoreDirectory, _ operation: Int32) throws(StoreError) -> Int32 {
        let folder: Int32
        do { folder = try dir.fs.open(dir.path, O_RDONLY | O_DIRECTORY, 0) } catch { throw error.storeError() }
        do {
            try lockBriefly(dir, folder, operation)
        } catch {
            dir.fs.close(folder)
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN { throw inUse(dir) }
            throw error.storeError(path: dir.path)
        }
        return folder
    }

    /// `flock(LOCK_EX | LOCK_NB)`, tried a few times over about 50 ms before giving up.
    ///
    /// A lock just released can still be held for a moment by a copy of its descriptor: a
    /// process spawned by another thread holds copies of every descriptor until it calls
    /// `exec` (O_CLOEXEC closes them only then). Without the retry, a store closed and
    /// reopened at once in a process that also starts programs would now and then be
    /// reported in use by itself (as under load in the test suite).
    private static func lockBriefly(_ dir: StoreDirectory, _ fd: Int32, _ operation: Int32) throws(FileSystem.Failure) {
        var attempt = 0
        while true {
            do {
                return try dir.fs.flock(fd, operation | LOCK_NB)
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
    /// - Returns: The descriptors that hold the lock, or nil when the store has no folder
    ///   (nothing to hold).
    /// - Throws: `.locked`, naming the holder's pid, when a writer holds the store.
    static func acquireShared(_ dir: StoreDirectory) throws(StoreError) -> Held? {
        let folder: Int32
        do {
            folder = try lockFolder(dir, LOCK_SH)
        } catch  where error.code == .io {
            return nil  // no folder: verify reports what it finds, and holds nothing
        }
        let lockPath = dir.path(of: StoreFormat.lockName)
        let fd: Int32
        do {
            fd = try dir.fs.open(lockPath, O_RDONLY, 0)
        } catch {
            if error.errno == ENOENT { return Held(folder: folder, file: nil) }
            dir.fs.close(folder)
            throw error.storeError(path: lockPath)
        }
        do {
            try dir.fs.flock(fd, LOCK_SH | LOCK_NB)
        } catch {
            defer {
                dir.fs.close(fd)
                dir.fs.close(folder)
            }
            if error.errno == EWOULDBLOCK || error.errno == EAGAIN { throw inUse(dir, fd) }
            throw error.storeError(path: lockPath)
        }
        return Held(folder: folder, file: fd)
    }

    /// The error for a lock held by someone else, naming the process in the lock file when it
    /// is still running.
    ///
    /// A shared holder (a verifier) writes no pid, so the file may name an earlier writer that
    /// has exited.
    private static func inUse(_ dir: StoreDirectory, _ fd: Int32? = nil) -> StoreError {
        let holder = (try? holderPID(dir, fd)).flatMap { $0 }
        let who: String
        if let holder, holder == Int(getpid()) {
            // Two handles of one process (two containers on one folder): a pid would read as
            // someone else's.
            who = "this process (process \(holder)): another handle of it has the store open"
        } else if let holder, holder > 0, holder <= Int(Int32.max), kill(pid_t(holder), 0) == 0 || errno == EPERM {
            who = "process \(holder)"
        } else {
            who = "another process (perhaps a `sagarun store verify`)"
        }
        return StoreError(
            .locked, "the store at \(dir.path) is in use by \(who)", path: dir.path(of: StoreFormat.lockName))
    }

    /// The pid written in the lock file (read through `fd`, or opened for the purpose), if
    /// it reads as one.
    private static func holderPID(_ dir: StoreDirectory, _ fd: Int32?) throws(StoreError) -> Int? {
        guard let fd else {
            guard let opened = try? dir.open(StoreFormat.lockName, O_RDONLY) else { return nil }
            defer { dir.fs.close(opened) }
            return try holderPID(dir, opened)
        }
        let bytes = try dir.readAll(fd, name: StoreFormat.lockName)
        return Int(String(decoding: bytes.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self))
    }
}
