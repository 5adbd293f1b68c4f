import Foundation
import SagaCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes a run as a Chrome Trace Event Format file (it opens in Perfetto and
/// chrome://tracing): one track per saga task, a slice per blocking effect with its
/// arguments, instant events for each dispatched action, each `call` of a saga function and
/// each error, and flow arrows from a fork to its child.
///
/// Events are written as canonical JSON (keys in order) into a buffer, which goes to the file
/// each time it fills; ``close()`` writes the rest, ends the JSON document and says whether
/// every write succeeded (a full disk loses the trace, and the run must say so).
///
/// Its fields are unchecked for exclusivity: only the interpreter that runs writes to it, one
/// event at a time, and the checks would be a noticeable part of a traced run.
public final class ChromeTrace {
    private let fd: Int32
    /// The first failed write's error; nothing is written after it.
    @exclusivity(unchecked) private var failure: Int32?
    @exclusivity(unchecked) private var first = true
    @exclusivity(unchecked) private var named: Set<Int> = []
    @exclusivity(unchecked) private var lastTimestamp = -1
    @exclusivity(unchecked) private var nextFlow = 1
    /// Events not yet written to the file.
    @exclusivity(unchecked) private var buffer: [UInt8] = []
    /// How full ``buffer`` gets before it is written.
    private static let bufferSize = 1 << 16

    /// Creates (or truncates) the trace file; `nil` if it cannot be opened for writing.
    public init?(path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return nil }
        self.fd = fd
        buffer.reserveCapacity(Self.bufferSize + 4096)
        append("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
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
        startEvent()
        append("{\"args\":{\"name\":")
        append(string: "\(name) #\(tid)")
        append("},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":")
        append(tid)
        append("}")
        endEvent()
    }

    /// A blocking effect begins.
    func begin(_ tid: Int, _ name: String, _ args: Value, at ms: Int) {
        startEvent()
        append("{\"args\":")
        args.writeCanonicalJSON(into: &buffer)
        beginRest(tid, name, at: ms)
    }

    /// A blocking effect begins, its arguments one key and its value (`{"effect": …}`), written
    /// as that record would be, without making it.
    func begin(_ tid: Int, _ name: String, argument key: StaticString, _ value: Value, at ms: Int) {
        startEvent(argument: key, value)
        beginRest(tid, name, at: ms)
    }

    /// The fields of a slice's beginning after its arguments.
    private func beginRest(_ tid: Int, _ name: String, at ms: Int) {
        append(",\"cat\":\"effect\",\"name\":")
        append(string: name)
        append(",\"ph\":\"B\",\"pid\":1,\"tid\":")
        appendTidAndTime(tid, timestamp(ms))
        endEvent()
    }

    /// The blocking effect of a task ends.
    func end(_ tid: Int, at ms: Int) {
        startEvent()
        append("{\"ph\":\"E\",\"pid\":1,\"tid\":")
        appendTidAndTime(tid, timestamp(ms))
        endEvent()
    }

    /// An instant event: on a task's track, or global when `tid` is nil.
    func instant(_ name: String, tid: Int?, _ args: Value, at ms: Int) {
        startEvent()
        append("{\"args\":")
        args.writeCanonicalJSON(into: &buffer)
        instantRest(name, tid: tid, at: ms)
    }

    /// An instant event whose arguments are one key and its value (`{"action": …}`), written
    /// as that record would be, without making it.
    func instant(_ name: String, tid: Int?, argument key: StaticString, _ value: Value, at ms: Int) {
        startEvent(argument: key, value)
        instantRest(name, tid: tid, at: ms)
    }

    /// An instant event with no arguments.
    func instant(_ name: String, tid: Int?, at ms: Int) {
        startEvent()
        append("{")
        instantFields(name, tid: tid, at: ms)
    }

    /// The fields of an instant event after its arguments.
    private func instantRest(_ name: String, tid: Int?, at ms: Int) {
        append(",")
        instantFields(name, tid: tid, at: ms)
    }

    /// The fields of an instant event from its name on.
    private func instantFields(_ name: String, tid: Int?, at ms: Int) {
        append("\"name\":")
        append(string: name)
        append(",\"ph\":\"i\",\"pid\":1,\"s\":")
        append(tid == nil ? "\"g\"" : "\"t\"")
        append(",\"tid\":")
        appendTidAndTime(tid ?? 0, timestamp(ms))
        endEvent()
    }

    /// An arrow from the parent's track to the child's.
    func flow(from parent: Int, to child: Int, _ name: String, at ms: Int) {
        let id = nextFlow
        nextFlow += 1
        for (phase, tid, isEnd): (StaticString, Int, Bool) in [("s", parent, false), ("f", child, true)] {
            startEvent()
            append(isEnd ? "{\"bp\":\"e\",\"cat\":\"fork\",\"id\":" : "{\"cat\":\"fork\",\"id\":")
            append(id)
            append(",\"name\":")
            append(string: name)
            append(",\"ph\":\"")
            append(phase)
            append("\",\"pid\":1,\"tid\":")
            append(tid)
            append(",\"ts\":")
            append(timestamp(ms))
            append("}")
            endEvent()
        }
    }

    /// Ends the document and closes the file.
    ///
    /// - Returns: why the trace is incomplete (the first failed write's error, as
    ///   `strerror` says it), or `nil` when every write succeeded.
    @discardableResult
    public func close() -> String? {
        append("\n]}\n")
        flush()
        if Glibc.close(fd) != 0, failure == nil { failure = errno }
        return failure.map { String(cString: strerror($0)) }
    }

    /// Separates an event from the one before.
    private func startEvent() {
        if !first { append(",\n") }
        first = false
    }

    /// Starts an event with arguments of one key and its value, written as that record
    /// would be, without making it.
    private func startEvent(argument key: StaticString, _ value: Value) {
        startEvent()
        append("{\"args\":{\"")
        append(key)
        append("\":")
        value.writeCanonicalJSON(into: &buffer)
        append("}")
    }

    /// Writes the buffer once it is full.
    @inline(__always)
    private func endEvent() {
        if buffer.count >= Self.bufferSize { flush() }
    }

    private func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// `TID,"ts":TS}`, the end of most events, in one append.
    private func appendTidAndTime(_ tid: Int, _ ts: Int) {
        guard tid >= 0, ts >= 0 else {
            append(tid)
            append(",\"ts\":")
            append(ts)
            append("}")
            return
        }
        // At most 19 digits each, and the 7 bytes between and after them.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { bytes in
            var at = 0
            func digits(_ number: Int) {
                var n = number
                var count = 1
                var rest = n / 10
                while rest > 0 {
                    count += 1
                    rest /= 10
                }
                var i = at + count
                repeat {
                    i -= 1
                    bytes[i] = UInt8(ascii: "0") &+ UInt8(n % 10)
                    n /= 10
                } while n > 0
                at += count
            }
            digits(tid)
            for byte in ",\"ts\":".utf8 {
                bytes[at] = byte
                at += 1
            }
            digits(ts)
            bytes[at] = UInt8(ascii: "}")
            at += 1
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<at]))
        }
    }

    /// A number's decimal digits (a timestamp, an id: never negative).
    private func append(_ number: Int) {
        guard number > 0 else {
            if number == 0 {
                buffer.append(UInt8(ascii: "0"))
            } else {
                buffer.append(contentsOf: String(number).utf8)
            }
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var n = number
        withUnsafeMutableBytes(of: &digits) { bytes in
            while n > 0 {
                count += 1
                bytes[24 - count] = UInt8(ascii: "0") &+ UInt8(n % 10)
                n /= 10
            }
            buffer.append(contentsOf: bytes[(24 - count)...])
        }
    }

    /// A JSON string, escaped as canonical JSON escapes it.
    private func append(string: String) {
        Value.string(string).writeCanonicalJSON(into: &buffer)
    }

    /// Writes the buffer to the file and empties it.
    private func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        buffer.withUnsafeBufferPointer { bytes in
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
