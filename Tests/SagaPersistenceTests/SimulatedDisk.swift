import Foundation
import SagaPersistence
import SagaTestSupport

/// An in-memory disk behind the ``FileSystem`` seam that remembers what is durable, after
/// SQLite's crash-test VFS: each file has its written bytes and its synced bytes, and the
/// folder has its current names and its synced names.
///
/// ``crashed(_:)`` gives the disk as a power loss would leave it, keeping, dropping or
/// garbling whatever was not synced.
///
/// It also fails calls on demand: the `failAt`-th call whose name is in `faulty` fails
/// once (a failing write first writes half its bytes, as a disk that fills up does).
final class SimulatedDisk: @unchecked Sendable {
    /// What a power loss does to unsynced state.
    struct Crash: CustomStringConvertible, Sendable {
        /// What happens to bytes written since the file's last sync.
        enum Content: String, Sendable, CaseIterable {
            case keep, drop, garble
        }
        var content: Content
        /// Whether creations, renames and removals since the folder's last sync are kept.
        var keepNames: Bool

        static let all = Content.allCases.flatMap { c in [true, false].map { Crash(content: c, keepNames: $0) } }

        var description: String { "\(content.rawValue) bytes, \(keepNames ? "keep" : "drop") names" }
    }

    private final class Inode {
        var data: [UInt8] = []
        var synced: [UInt8] = []
    }

    private struct Descriptor {
        var path: String
        var inode: Inode?
        var offset = 0
        var append = false
    }

    private let lock = NSLock()
    private var names: [String: Inode] = [:]
    private var syncedNames: [String: Inode] = [:]
    private var folders: Set<String> = ["/"]
    private var descriptors: [Int32: Descriptor] = [:]
    private var nextDescriptor: Int32 = 100
    private var counted = 0
    private var random = SplitMix64(seed: 7)

    /// The calls counted for `failAt` (`"write"`, `"fsync"`, `"fdatasync"`, `"rename"`, …).
    var faulty: Set<String> = []
    /// The counted call that fails, once; nil: none.
    var failAt: Int?
    /// How many calls in `faulty` were made.
    var faultyCalls: Int { lock.withLock { counted } }
    /// Whether the injected failure happened.
    var failed: Bool { lock.withLock { failAt.map { counted >= $0 } ?? false } }

    init() {}

    /// The disk after a power loss now, as a new disk without faults.
    func crashed(_ crash: Crash) -> SimulatedDisk {
        lock.withLock {
            let other = SimulatedDisk()
            other.folders = folders
            var copies: [ObjectIdentifier: Inode] = [:]
            func copy(_ inode: Inode) -> Inode {
                if let done = copies[ObjectIdentifier(inode)] { return done }
                let c = Inode()
                switch crash.content {
                case .keep: c.data = inode.data
                case .drop: c.data = inode.synced
                case .garble:
                    c.data = inode.data
                    for i in c.data.indices where i >= inode.synced.count || inode.synced[i] != c.data[i] {
                        c.data[i] = UInt8(truncatingIfNeeded: random.next())
                    }
                }
                c.synced = c.data
                copies[ObjectIdentifier(inode)] = c
                return c
            }
            other.names = (crash.keepNames ? names : syncedNames).mapValues(copy)
            other.syncedNames = other.names
            return other
        }
    }

    /// `body` under the lock, with a typed error (NSLock's `withLock` rethrows `any Error`).
    private func locked<T>(_ body: () throws(FileSystem.Failure) -> T) throws(FileSystem.Failure) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Whether a call named `call` is the one to fail now.
    private func shouldFail(_ call: String) -> Bool {
        guard faulty.contains(call) else { return false }
        counted += 1
        return counted == failAt
    }

    private func failure(_ call: String, _ code: Int32, _ path: String? = nil) -> FileSystem.Failure {
        FileSystem.Failure(call: call, errno: code, path: path)
    }

    func fileSystem() -> FileSystem {
        FileSystem(
            open: { (path, flags, _) throws(FileSystem.Failure) -> Int32 in try self.open(path, flags) },
            close: { fd in self.lock.withLock { _ = self.descriptors.removeValue(forKey: fd) } },
            read: { (fd, buffer, offset) throws(FileSystem.Failure) -> Int in
                try self.locked { () throws(FileSystem.Failure) -> Int in
                    guard let inode = self.descriptors[fd]?.inode else { throw self.failure("read", EBADF) }
                    let start = min(Int(offset), inode.data.count)
                    let n = min(buffer.count, inode.data.count - start)
                    for i in 0..<n { buffer[i] = inode.data[start + i] }
                    return n
                }
            },
            write: { (fd, bytes) throws(FileSystem.Failure) -> Int in try self.write(fd, bytes) },
            fsync: { (fd) throws(FileSystem.Failure) in try self.sync(fd, "fsync") },
            fdatasync: { (fd) throws(FileSystem.Failure) in try self.sync(fd, "fdatasync") },
            ftruncate: { (fd, length) throws(FileSystem.Failure) in
                try self.locked { () throws(FileSystem.Failure) in
                    if self.shouldFail("ftruncate") { throw self.failure("ftruncate", EIO) }
                    guard let inode = self.descriptors[fd]?.inode else { throw self.failure("ftruncate", EBADF) }
                    let n = Int(length)
                    if n < inode.data.count {
                        inode.data.removeLast(inode.data.count - n)
                    } else {
                        inode.data += [UInt8](repeating: 0, count: n - inode.data.count)
                    }
                }
            },
            seekToEnd: { (fd) throws(FileSystem.Failure) -> Int64 in
                try self.locked { () throws(FileSystem.Failure) -> Int64 in
                    guard let inode = self.descriptors[fd]?.inode else { throw self.failure("lseek", EBADF) }
                    self.descriptors[fd]?.offset = inode.data.count
                    return Int64(inode.data.count)
                }
            },
            rename: { (from, to) throws(FileSystem.Failure) in
                try self.locked { () throws(FileSystem.Failure) in
                    if self.shouldFail("rename") { throw self.failure("rename", EIO, to) }
                    guard let inode = self.names.removeValue(forKey: from) else {
                        throw self.failure("rename", ENOENT, from)
                    }
                    self.names[to] = inode
                }
            },
            unlink: { (path) throws(FileSystem.Failure) in
                try self.locked { () throws(FileSystem.Failure) in
                    if self.shouldFail("unlink") { throw self.failure("unlink", EIO, path) }
                    guard self.names.removeValue(forKey: path) != nil else {
                        throw self.failure("unlink", ENOENT, path)
                    }
                }
            },
            flock: { _, _ in },
            makeDirectory: { path in self.lock.withLock { _ = self.folders.insert(path) } },
            listDirectory: { (path) throws(FileSystem.Failure) -> [String] in
                try self.locked { () throws(FileSystem.Failure) -> [String] in
                    guard self.folders.contains(path) else { throw self.failure("opendir", ENOENT, path) }
                    let prefix = path + "/"
                    return self.names.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
                }
            },
            isRegularFile: { (path) throws(FileSystem.Failure) -> Bool in
                try self.locked { () throws(FileSystem.Failure) -> Bool in
                    if self.names[path] != nil { return true }
                    if self.folders.contains(path) { return false }
                    throw self.failure("stat", ENOENT, path)
                }
            })
    }

    private func open(_ path: String, _ flags: Int32) throws(FileSystem.Failure) -> Int32 {
        try locked { () throws(FileSystem.Failure) -> Int32 in
            var descriptor = Descriptor(path: path)
            if flags & O_DIRECTORY != 0 {
                guard folders.contains(path) else { throw failure("open", ENOENT, path) }
            } else {
                var inode = names[path]
                if inode == nil, flags & O_CREAT != 0 {
                    inode = Inode()
                    names[path] = inode
                }
                guard let inode else { throw failure("open", ENOENT, path) }
                if flags & O_TRUNC != 0 { inode.data = [] }
                descriptor.inode = inode
                descriptor.append = flags & O_APPEND != 0
            }
            nextDescriptor += 1
            descriptors[nextDescriptor] = descriptor
            return nextDescriptor
        }
    }

    private func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(FileSystem.Failure) -> Int {
        try locked { () throws(FileSystem.Failure) -> Int in
            guard var descriptor = descriptors[fd], let inode = descriptor.inode else { throw failure("write", EBADF) }
            let failing = shouldFail("write")
            let count = failing ? bytes.count / 2 : bytes.count
            if descriptor.append { descriptor.offset = inode.data.count }
            if descriptor.offset > inode.data.count {
                inode.data += [UInt8](repeating: 0, count: descriptor.offset - inode.data.count)
            }
            for i in 0..<count {
                let at = descriptor.offset + i
                if at < inode.data.count { inode.data[at] = bytes[i] } else { inode.data.append(bytes[i]) }
            }
            descriptor.offset += count
            descriptors[fd] = descriptor
            if failing { throw failure("write", ENOSPC) }
            return count
        }
    }

    private func sync(_ fd: Int32, _ call: String) throws(FileSystem.Failure) {
        try locked { () throws(FileSystem.Failure) in
            if shouldFail(call) { throw failure(call, EIO) }
            guard let descriptor = descriptors[fd] else { throw failure(call, EBADF) }
            if let inode = descriptor.inode {
                inode.synced = inode.data
            } else {
                let prefix = descriptor.path + "/"
                syncedNames = syncedNames.filter { !$0.key.hasPrefix(prefix) }
                for (name, inode) in names where name.hasPrefix(prefix) { syncedNames[name] = inode }
            }
        }
    }
}
