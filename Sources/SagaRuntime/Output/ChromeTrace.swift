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
    private let file: TraceFile
    @exclusivity(unchecked) private var first = true
    /// One bit per task number: whether its track is named yet.
    @exclusivity(unchecked) private var named: [UInt64] = []
    @exclusivity(unchecked) private var lastTimestamp = -1
    @exclusivity(unchecked) private var nextFlow = 1
    /// Events not yet handed to the file: ``count`` bytes of ``capacity``.
    @exclusivity(unchecked) private var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var count = 0
    /// The buffer the file writes in the background, filled before ``bytes`` was.
    @exclusivity(unchecked) private var spare: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var isClosed = false
    /// How many bytes are handed to the file at once.
    private static let capacity = 1 << 18

    /// Creates (or truncates) the trace file; `nil` if it cannot be opened for writing.
    public init?(path: String) {
        guard let file = TraceFile(path: path) else { return nil }
        self.file = file
        bytes = .allocate(capacity: Self.capacity)
        spare = .allocate(capacity: Self.capacity)
        append("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
    }

    deinit {
        if !isClosed { _ = file.close() }
        bytes.deallocate()
        spare.deallocate()
    }

    /// Microseconds for an event at `milliseconds`: strictly increasing, so that events at
    /// the same virtual millisecond keep their order.
    func timestamp(_ milliseconds: Int) -> Int {
        lastTimestamp = max(milliseconds &* 1000, lastTimestamp + 1)
        return lastTimestamp
    }

    /// Names a task's track the first time it appears.
    ///
    /// The name is read only then: a task's name read at every event would be retained and
    /// released each time.
    @inline(__always)
    func track(_ tid: Int, _ name: @autoclosure () -> String) {
        let word = tid >> 6
        let bit = UInt64(1) << UInt64(tid & 63)
        if tid >= 0, word < named.count, named[word] & bit != 0 { return }
        nameTrack(tid, name())
    }

    /// Writes a track's name, once.
    @inline(never)
    private func nameTrack(_ tid: Int, _ name: String) {
        if tid >= 0 {
            let word = tid >> 6
            if word >= named.count { named.append(contentsOf: repeatElement(0, count: word + 1 - named.count)) }
            named[word] |= UInt64(1) << UInt64(tid & 63)
        }
        startEvent()
        append("{\"args\":{\"name\":")
        append(string: "\(name) #\(tid)")
        append("},\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":")
        append(tid)
        append("}")
    }

    /// A blocking effect begins.
    func begin(_ tid: Int, _ name: some TraceName, _ args: Value, at ms: Int, stamp: Int? = nil) {
        startEvent()
        append("{\"args\":")
        append(json: args)
        beginRest(tid, name, at: ms, stamp: stamp)
    }

    /// A blocking effect begins, its arguments one key and a string given as its JSON text
    /// (`{"effect": "…"}`), written as that record would be, without making it.
    ///
    /// `stamp`, when given, is its timestamp, taken earlier with ``timestamp(_:)``: the slice
    /// then begins before events written since.
    func begin(
        _ tid: Int, _ name: some TraceName, argument key: StaticString, json: [UInt8], at ms: Int, stamp: Int? = nil
    ) {
        startEvent()
        append("{\"args\":{\"")
        append(key)
        append("\":")
        json.withUnsafeBytes { append($0) }
        append("}")
        beginRest(tid, name, at: ms, stamp: stamp)
    }

    /// The fields of a slice's beginning after its arguments.
    private func beginRest(_ tid: Int, _ name: some TraceName, at ms: Int, stamp: Int? = nil) {
        append(",\"cat\":\"effect\",\"name\":")
        name.write(in: self)
        append(",\"ph\":\"B\",\"pid\":1,\"tid\":")
        appendTidAndTime(tid, stamp ?? timestamp(ms))
    }

    /// The blocking effect of a task ends.
    func end(_ tid: Int, at ms: Int) {
        startEvent()
        append("{\"ph\":\"E\",\"pid\":1,\"tid\":")
        appendTidAndTime(tid, timestamp(ms))
    }

    /// An instant event: on a task's track, or global when `tid` is nil.
    func instant(_ name: some TraceName, tid: Int?, _ args: Value, at ms: Int) {
        startEvent()
        append("{\"args\":")
        append(json: args)
        instantRest(name, tid: tid, at: ms)
    }

    /// An instant event whose arguments are one key and its value (`{"action": …}`), written
    /// as that record would be, without making it.
    func instant(_ name: some TraceName, tid: Int?, argument key: StaticString, _ value: Value, at ms: Int) {
        startEvent()
        append("{\"args\":{\"")
        append(key)
        append("\":")
        append(json: value)
        append("}")
        instantRest(name, tid: tid, at: ms)
    }

    /// A dispatched action's instant event, named by its type, its argument the action.
    ///
    /// Its arguments are `{"action": …}`. An action that is its type alone, the usual one,
    /// has its type escaped once, and copied for the name.
    func action(_ action: Value, type: String, at ms: Int) {
        guard case .record(let r) = action, r.count == 1, r.actionType != nil else {
            return instant(type, tid: nil, argument: "action", action, at: ms)
        }
        startEvent()
        append("{\"args\":{\"action\":{\"type\":")
        let start = count
        append(string: type)
        let end = count
        append("}},\"name\":")
        // Copied from where it was just written, unless the buffer went to the file since.
        if start < end, end <= count {
            let length = end &- start
            if length <= Self.capacity &- count {
                (bytes + count).update(from: bytes + start, count: length)
                count &+= length
            } else {
                append(string: type)
            }
        } else {
            append(string: type)
        }
        append(",\"ph\":\"i\",\"pid\":1,\"s\":\"g\",\"tid\":")
        appendTidAndTime(0, timestamp(ms))
    }

    /// An instant event with no arguments; `stamp` as in ``begin(_:_:argument:json:at:stamp:)``.
    func instant(_ name: some TraceName, tid: Int?, at ms: Int, stamp: Int? = nil) {
        startEvent()
        append("{")
        instantFields(name, tid: tid, at: ms, stamp: stamp)
    }

    /// The fields of an instant event after its arguments.
    private func instantRest(_ name: some TraceName, tid: Int?, at ms: Int) {
        append(",")
        instantFields(name, tid: tid, at: ms)
    }

    /// The fields of an instant event from its name on.
    private func instantFields(_ name: some TraceName, tid: Int?, at ms: Int, stamp: Int? = nil) {
        append("\"name\":")
        name.write(in: self)
        append(
            tid == nil ? ",\"ph\":\"i\",\"pid\":1,\"s\":\"g\",\"tid\":" : ",\"ph\":\"i\",\"pid\":1,\"s\":\"t\",\"tid\":"
        )
        appendTidAndTime(tid ?? 0, stamp ?? timestamp(ms))
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
            appendTidAndTime(tid, timestamp(ms))
        }
    }

    /// Ends the document and closes the file.
    ///
    /// - Returns: why the trace is incomplete (the first failed write's error, as
    ///   `strerror` says it), or `nil` when every write succeeded.
    @discardableResult
    public func close() -> String? {
        guard !isClosed else { return nil }
        append("\n]}\n")
        flush()
        isClosed = true
        return file.close().map { String(cString: strerror($0)) }
    }

    /// Separates an event from the one before.
    @inline(__always)
    private func startEvent() {
        if !first {
            append(",\n")
        } else {
            first = false
        }
    }

    @inline(__always)
    private func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Copies `run` into the buffer, writing the buffer first when `run` does not fit.
    @inline(__always)
    private func append(_ run: UnsafeRawBufferPointer) {
        guard let source = run.baseAddress, run.count <= Self.capacity &- count else {
            appendOverflowing(run)
            return
        }
        UnsafeMutableRawPointer(bytes + count).copyMemory(from: source, byteCount: run.count)
        count &+= run.count
    }

    /// Appends what does not fit: the buffer goes to the file first, and a run larger than
    /// the whole buffer goes straight after it.
    @inline(never)
    private func appendOverflowing(_ run: UnsafeRawBufferPointer) {
        guard let source = run.baseAddress, run.count > 0 else { return }
        flush()
        guard run.count <= Self.capacity else {
            file.writeNow(UnsafeRawBufferPointer(start: source, count: run.count))
            return
        }
        UnsafeMutableRawPointer(bytes).copyMemory(from: source, byteCount: run.count)
        count = run.count
    }

    /// A value as canonical JSON.
    ///
    /// An action that is its type alone, the usual one, is `{"type":…}` written here, without
    /// a writer of its own.
    private func append(json value: Value) {
        if case .record(let r) = value, r.count == 1, let type = r.actionType {
            append("{\"type\":")
            append(string: type)
            append("}")
            return
        }
        value.withCanonicalJSON { append(UnsafeRawBufferPointer($0)) }
    }

    /// `TID,"ts":TS}`, the end of most events, written in place.
    private func appendTidAndTime(_ tid: Int, _ ts: Int) {
        // At most 20 characters each, and the 7 bytes between and after them.
        if Self.capacity &- count < 48 { flush() }
        var at = bytes + count
        Self.writeDigits(tid, at: &at)
        let between: StaticString = ",\"ts\":"
        at.update(from: between.utf8Start, count: between.utf8CodeUnitCount)
        at += between.utf8CodeUnitCount
        Self.writeDigits(ts, at: &at)
        at.pointee = UInt8(ascii: "}")
        at += 1
        count = at - bytes
    }

    /// The two digits of every number below 100, in order.
    private static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// Writes `number` in decimal at `at`, which it moves past the digits (at most 20 bytes).
    @inline(__always)
    private static func writeDigits(_ number: Int, at: inout UnsafeMutablePointer<UInt8>) {
        guard number >= 0 else {
            for byte in String(number).utf8 {
                at.pointee = byte
                at += 1
            }
            return
        }
        var width = 1
        var power = 10
        while width < 19, number >= power {
            width &+= 1
            power &*= 10
        }
        var n = UInt(number)
        var end = at + width
        at = end
        let pairs = digitPairs.utf8Start
        while n >= 100 {
            let pair = Int(n % 100) &* 2
            n /= 100
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
        }
        if n >= 10 {
            let pair = Int(n) &* 2
            end -= 2
            end[0] = pairs[pair]
            end[1] = pairs[pair &+ 1]
        } else {
            end -= 1
            end[0] = UInt8(ascii: "0") &+ UInt8(n)
        }
    }

    /// A number's decimal digits (a flow id: never negative).
    private func append(_ number: Int) {
        var text = String(number)
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// A name given as text, as a JSON string (see ``append(string:)``).
    fileprivate func appendName(_ name: String) {
        append(string: name)
    }

    /// A name given as a literal, which needs no escaping (the trace's own names: `take`,
    /// `put`, `delay`, …), in quotes.
    fileprivate func appendName(_ name: StaticString) {
        append("\"")
        append(name)
        append("\"")
    }

    /// A JSON string, escaped as canonical JSON escapes it: copied as it is when no character
    /// of it needs escaping, as in the names of effects and of most actions.
    private func append(string: String) {
        let plain = string.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte >= 0x7F {
                return false
            }
            append("\"")
            append(UnsafeRawBufferPointer(utf8))
            append("\"")
            return true
        }
        if plain != true { append(json: .string(string)) }
    }

    /// Hands the buffer to the file and goes on in the spare one.
    private func flush() {
        guard count > 0 else { return }
        file.write(bytes, count: count)
        swap(&bytes, &spare)
        count = 0
    }
}

/// The name of a slice or an instant event: text, which the trace escapes as JSON, or one of
/// the trace's own literal names, which it writes as they are.
protocol TraceName {
    /// Writes the name, as a JSON string, into `trace`.
    func write(in trace: ChromeTrace)
}

extension String: TraceName {
    func write(in trace: ChromeTrace) { trace.appendName(self) }
}

extension StaticString: TraceName {
    func write(in trace: ChromeTrace) { trace.appendName(self) }
}
