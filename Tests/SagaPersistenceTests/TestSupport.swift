import Foundation
import SagaCore
import Synchronization
import Testing

@testable import SagaPersistence

/// A fresh folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "saga-persistence-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The store's files, by name.
    func files() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// The path of the newest log segment.
    func newestLog() -> String? {
        files().filter { $0.hasPrefix("log-") && !$0.hasSuffix(".tmp") }.last.map { path + "/" + $0 }
    }

    func read(_ file: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) ?? [] }

    func write(_ file: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    }

    /// A copy of this folder's files in a new folder.
    func copy() -> TemporaryFolder {
        let other = TemporaryFolder()
        for name in files() { other.write(other.path + "/" + name, read(path + "/" + name)) }
        return other
    }
}

/// Runs `body` with a fresh folder that is removed afterwards.
func withTemporaryFolder<T>(_ body: (TemporaryFolder) async throws -> T) async rethrows -> T {
    let folder = TemporaryFolder()
    defer { folder.remove() }
    return try await body(folder)
}

/// The two stores that must behave alike.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case file

    var testDescription: String { rawValue }

    /// A new empty store of this kind, and a clean-up to call after closing it.
    func make() throws -> (ElementStore, () -> Void) {
        switch self {
        case .memory:
            return (MemoryStore(), {})
        case .file:
            let folder = TemporaryFolder()
            return (try FileStore.open(directory: folder.path), { folder.remove() })
        }
    }
}

/// Every element of `entity`, ordered by id.
func all(_ store: ElementStore, _ entity: String = "items") async throws -> [Value] {
    try await store.query(entity: entity, Query())
}

/// The ids of `elements`.
func ids(_ elements: [Value]) -> [Value] { elements.map { $0["id"] } }

/// A ``FileSystem`` over the real one that counts calls, and fails calls on demand: from the
/// `failFrom`-th counted call on, every call (but `close`) fails with `errno` (EIO unless
/// set), as if the process had died there.
///
/// Counting starts once `armAfterDatasyncs` fdatasyncs have succeeded.
final class FaultInjector: @unchecked Sendable {
    private let lock = NSLock()
    private var counted = 0
    private var datasyncs = 0
    private(set) var failures = 0
    var armAfterDatasyncs = 0
    var failFrom: Int?
    /// The error the failing calls report.
    var errno: Int32 = EIO
    /// Calls whose name is here are the only ones counted and failed (nil: all).
    var only: Set<String>?
    /// A pause in each fdatasync, as a real disk has.
    var datasyncDelay: UInt32 = 0

    /// How many calls were counted (after arming).
    var countedCalls: Int { lock.withLock { counted } }
    /// How many fdatasyncs succeeded.
    var datasyncCount: Int { lock.withLock { datasyncs } }

    private func check(_ call: String) throws(FileSystem.Failure) {
        let fail: Bool = lock.withLock {
            guard datasyncs >= armAfterDatasyncs, only.map({ $0.contains(call) }) ?? true else { return false }
            counted += 1
            if let failFrom, counted >= failFrom {
                failures += 1
                return true
            }
            return false
        }
        if fail { throw FileSystem.Failure(call: call, errno: errno) }
    }

    func fileSystem() -> FileSystem {
        let real = FileSystem.posix
        var fs = real
        fs.open = { (p, f, m) throws(FileSystem.Failure) in
            try self.check("open")
            return try real.open(p, f, m)
        }
        fs.read = { (fd, b, o) throws(FileSystem.Failure) in
            try self.check("read")
            return try real.read(fd, b, o)
        }
        fs.write = { (fd, b) throws(FileSystem.Failure) in
            try self.check("write")
            return try real.write(fd, b)
        }
        fs.fsync = { (fd) throws(FileSystem.Failure) in
            try self.check("fsync")
            try real.fsync(fd)
        }
        fs.fdatasync = { (fd) throws(FileSystem.Failure) in
            try self.check("fdatasync")
            if self.datasyncDelay > 0 { usleep(self.datasyncDelay) }
            try real.fdatasync(fd)
            self.lock.withLock { self.datasyncs += 1 }
        }
        fs.ftruncate = { (fd, n) throws(FileSystem.Failure) in
            try self.check("ftruncate")
            try real.ftruncate(fd, n)
        }
        fs.rename = { (a, b) throws(FileSystem.Failure) in
            try self.check("rename")
            try real.rename(a, b)
        }
        fs.unlink = { (p) throws(FileSystem.Failure) in
            try self.check("unlink")
            try real.unlink(p)
        }
        fs.flock = { (fd, op) throws(FileSystem.Failure) in
            try self.check("flock")
            try real.flock(fd, op)
        }
        return fs
    }
}

/// What arrived from other threads (actions a scheduler delivered, a store's acknowledgements),
/// in order; ``wait(for:)`` returns once that many have come.
final class Delivered<Item: Sendable>: Sendable {
    private let state = Mutex<(items: [Item], waiter: (count: Int, c: CheckedContinuation<Void, Never>)?)>(([], nil))

    var items: [Item] { state.withLock { $0.items } }

    func add(_ item: Item) {
        let ready = state.withLock { s -> CheckedContinuation<Void, Never>? in
            s.items.append(item)
            guard let w = s.waiter, s.items.count >= w.count else { return nil }
            s.waiter = nil
            return w.c
        }
        ready?.resume()
    }

    /// Waits until `count` items have come; returns all that came.
    @discardableResult
    func wait(for count: Int) async -> [Item] {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.items.count >= count { return true }
                s.waiter = (count, c)
                return false
            }
            if now { c.resume() }
        }
        return items
    }
}
