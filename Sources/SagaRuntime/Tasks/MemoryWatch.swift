import Foundation
import SagaCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Watches the memory the process holds (its resident set), for
/// ``Interpreter/Options/maxMemory``: a thread of its own reads it every few milliseconds and
/// raises a flag once it is past the budget, which the run reads where it allocates (a task
/// started, a long list or string built, each turn).
///
/// The resident set is the whole process's: the program's values, tasks and buffers, the
/// store's data, and memory the allocator keeps after values are freed (so it measures the
/// most the run has held, about).
final class MemoryWatch: Sendable {
    /// The budget, in bytes.
    let limit: Int
    private let exceeded = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    /// The shortest list or string whose building checks the budget.
    static let watchedLength = 4096

    /// How often the thread reads the resident set.
    static let interval: TimeInterval = 0.005

    /// Starts watching, with a budget of `limit` bytes.
    init(limit: Int) {
        self.limit = limit
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                if check() { return }
                Thread.sleep(forTimeInterval: Self.interval)
            }
        }
        thread.stackSize = 64 << 10
        thread.start()
    }

    /// Whether the process has held more than the budget.
    var isExceeded: Bool { exceeded.load(ordering: .relaxed) }

    /// Reads the resident set now (after a large value was built, which may have taken much
    /// at once): whether it is past the budget.
    @discardableResult
    func check() -> Bool {
        if exceeded.load(ordering: .relaxed) { return true }
        guard let bytes = Self.residentBytes(), bytes > limit else { return false }
        exceeded.store(true, ordering: .relaxed)
        return true
    }

    /// The error of what allocates past the budget.
    var error: SagaError {
        SagaError(
            kind: "RangeError",
            message: "the run holds more than \(limit >> 20) MiB of memory; raise the limit with --max-memory")
    }

    /// Ends the thread.
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// The process's resident set, from `/proc/self/statm`; `nil` where it cannot be read.
    static func residentBytes() -> Int? {
        let fd = open("/proc/self/statm", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        // "size resident shared …", in pages.
        let fields = buffer[0..<n].split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }
}
