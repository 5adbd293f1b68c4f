import Foundation
import SagaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes a run as a Chrome Trace Event Format file (it opens in Perfetto and
/// chrome://tracing): one track per saga task, a slice per blocking effect with its
/// arguments, instant events for each dispatched action and each error, and flow arrows
/// from a fork to its child.
///
/// Events are streamed to the file as they happen; ``close()`` ends the JSON document and
/// says whether every write succeeded (a full disk loses the trace, and the run must say so).
public final class ChromeTrace {
    private let fd: Int32
    /// The first failed write's error; nothing is written after it.
    private var failure: Int32?
    private var first = true
    private var named: Set<Int> = []
    private var lastTimestamp = -1
    private var nextFlow = 1

    /// Creates (or truncates) the trace file; `nil` if it cannot be opened for writing.
    public init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.fd = fd
        write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
    }

    /// Microseconds for an event at `milliseconds`: strictly increasing, so that events at
    /// the same virtual millisecond keep their order.
    func timestamp(_ milliseconds: Int) -> Int {
        lastTimestamp = max(milliseconds &* 1000, lastTimestamp + 1)
        return lastTimestamp
    }

    /// Names a task's track the first time it appears.
    func track(_ tid: Int, _ name: String) {
        guard named.insert(tid).inserted else { return }
        event([
            "name": "thread_name", "ph": "M", "pid": 1, "tid": .int(tid), "args": ["name": .string("\(name) #\(tid)")],
        ])
    }

    /// A blocking effect begins.
    func begin(_ tid: Int, _ name: String, _ args: Value, at ms: Int) {
        event([
            "name": .string(name), "cat": "effect", "ph": "B", "pid": 1, "tid": .int(tid), "ts": .int(timestamp(ms)),
            "args": args,
        ])
    }

    /// The blocking effect of a task ends.
    func end(_ tid: Int, at ms: Int) {
        event(["ph": "E", "pid": 1, "tid": .int(tid), "ts": .int(timestamp(ms))])
    }

    /// An instant event: on a task's track, or global when `tid` is nil.
    func instant(_ name: String, tid: Int?, _ args: Value, at ms: Int) {
        var r: Record = ["name": .string(name), "ph": "i", "pid": 1, "ts": .int(timestamp(ms)), "args": args]
        if let tid {
            r["tid"] = .int(tid)
            r["s"] = "t"
        } else {
            r["tid"] = 0
            r["s"] = "g"
        }
        event(.record(r))
    }

    /// An arrow from the parent's track to the child's.
    func flow(from parent: Int, to child: Int, _ name: String, at ms: Int) {
        let id = nextFlow
        nextFlow += 1
        event([
            "name": .string(name), "cat": "fork", "ph": "s", "id": .int(id), "pid": 1, "tid": .int(parent),
            "ts": .int(timestamp(ms)),
        ])
        event([
            "name": .string(name), "cat": "fork", "ph": "f", "bp": "e", "id": .int(id), "pid": 1, "tid": .int(child),
            "ts": .int(timestamp(ms)),
        ])
    }

    /// Ends the document and closes the file.
    ///
    /// - Returns: why the trace is incomplete (the first failed write's error, as
    ///   `strerror` says it), or `nil` when every write succeeded.
    @discardableResult
    public func close() -> String? {
        write("\n]}\n")
        if Glibc.close(fd) != 0, failure == nil { failure = errno }
        return failure.map { String(cString: strerror($0)) }
    }

    private func event(_ value: Value) {
        write((first ? "" : ",\n") + value.canonicalJSON)
        first = false
    }

    private func write(_ text: String) {
        guard failure == nil else { return }
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress.map { $0 + done }, bytes.count - done)
                if n > 0 {
                    done += n
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    failure = n < 0 ? errno : ENOSPC
                    return
                }
            }
        }
    }
}
