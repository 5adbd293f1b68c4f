import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The file a ``ChromeTrace`` goes to, written in the background: while the kernel copies one
/// buffer, the run fills the next.
///
/// One write is in flight at a time, and writes land in the order they were handed over. A
/// buffer handed to ``write(_:count:)`` belongs to the file until the next call of
/// ``write(_:count:)``, ``writeNow(_:)`` or ``close()`` returns.
final class TraceFile: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "sagarun.trace-file")
    /// Signalled while no write is in flight.
    private let idle = DispatchSemaphore(value: 1)
    /// The first failed write's error; nothing is written after it.
    private let failure = Mutex<Int32?>(nil)

    /// Creates (or truncates) the file at `path`; `nil` if it cannot be opened for writing.
    init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    /// Writes `count` bytes at `buffer` in the background, once the write before is done.
    func write(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) {
        idle.wait()
        let bytes = UnsafeRawBufferPointer(start: buffer, count: count)
        // The pointer crosses to the queue as a number: the file owns the buffer until the
        // next call, which waits for this write first.
        let address = UInt(bitPattern: bytes.baseAddress)
        queue.async { [self] in
            writeAll(UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: address), count: count))
            idle.signal()
        }
    }

    /// Writes `bytes` now, after any write in flight: for a run the caller does not own.
    func writeNow(_ bytes: UnsafeRawBufferPointer) {
        idle.wait()
        writeAll(bytes)
        idle.signal()
    }

    /// Waits for the write in flight and closes the file.
    ///
    /// - Returns: the first failed write's error (or the close's), or `nil` when every write
    ///   succeeded.
    func close() -> Int32? {
        idle.wait()
        defer { idle.signal() }
        if Glibc.close(fd) != 0 {
            let error = errno
            failure.withLock { if $0 == nil { $0 = error } }
        }
        return failure.withLock { $0 }
    }

    /// Writes all of `bytes`, unless an earlier write failed.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard failure.withLock({ $0 == nil }), let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n > 0 {
                done += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                let error = n < 0 ? errno : ENOSPC
                failure.withLock { $0 = error }
                return
            }
        }
    }
}
