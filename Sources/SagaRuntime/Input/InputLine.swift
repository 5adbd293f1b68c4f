import SagaCore

/// One outside action, or a message for an event channel, with the time it is due when the
/// line names one.
struct InputLine {
    /// The action; for a channel's line, `[NAME, MESSAGE]` (see ``channelEvent``).
    var action: Value
    var at: Int?
    /// Set for a line of an event channel (`{"channel": NAME, …}`).
    ///
    /// Kept apart from the action, a flag rather than the name: a line of the usual kind is
    /// moved from the reader to the store, and a larger one costs that move at every line.
    var isForChannel = false

    /// A line for the event channel `name`: its message, or `nil` to close it.
    init(channel name: String, message: Value?, at: Int?) {
        self.action = .list([.string(name), message ?? .null, .bool(message == nil)])
        self.at = at
        self.isForChannel = true
    }

    init(action: Value, at: Int?) {
        self.action = action
        self.at = at
    }

    /// A channel's line: the channel's name, and its message or `nil` for a close.
    var channelEvent: (name: String, message: Value?)? {
        guard isForChannel, case .list(let parts) = action, parts.count == 3, case .string(let name) = parts[0] else {
            return nil
        }
        return (name, parts[2] == .bool(true) ? Value?.none : parts[1])
    }

    /// The action, moved out of the line (reading `action` copies it).
    consuming func takeAction() -> Value { action }

    /// Reads one line's UTF-8 bytes as they are (no `String` in between), or `nil` for a
    /// blank line (spaces, tabs and carriage returns only): invalid UTF-8 is a malformed line,
    /// like any other JSON error.
    static func parse(unlessBlank bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(InputError) -> InputLine? {
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
            return nil
        }
        let value: Value
        do {
            value = try JSONReader.parse(bytes: UnsafeRawBufferPointer(bytes))
        } catch {
            throw InputError(line: line, message: error.message, column: Int32(clamping: error.column))
        }
        // The type is read through the value, not a record bound here first: the binding,
        // alive while the value moved into the line, would cost a retain and a release a line.
        switch typeField(of: value) {
        case .string: return InputLine(action: value, at: nil)
        case .absent: break
        case .other: throw InputError(line: line, message: "'type' must be a string")
        }
        guard case .record(let r) = value else {
            throw InputError(line: line, message: "expected a JSON record, got \(value.kindName)")
        }
        if let channel = r["channel"] { return try channelLine(r, channel, line: line) }
        guard let at = r["at"], let action = r["action"] else {
            throw InputError(
                line: line,
                message:
                    "expected an action with a string 'type', {\"at\": MS, \"action\": {…}}, or {\"channel\": NAME, \"value\": …}"
            )
        }
        let ms = try time(at, line: line)
        for key in r.keys where key != "at" && key != "action" {
            throw InputError(
                line: line,
                message: "a timed line has no '\(key)': it has 'at' and 'action' (the action's fields go in it)")
        }
        guard case .record(let a) = action, case .string? = a["type"] else {
            throw InputError(line: line, message: "'action' must be a record with a string 'type'")
        }
        return InputLine(action: action, at: ms)
    }

    /// `{"channel": NAME, "value": …}` or `{"channel": NAME, "close": true}`, with an `at`
    /// or without.
    private static func channelLine(_ r: Record, _ channel: Value, line: Int) throws(InputError) -> InputLine {
        guard case .string(let name) = channel, !name.isEmpty else {
            throw InputError(line: line, message: "'channel' must be the name of an event channel, a string")
        }
        let at = try r["at"].map { v throws(InputError) in try time(v, line: line) }
        for key in r.keys where !["channel", "value", "close", "at"].contains(key) {
            throw InputError(line: line, message: "a channel line has no '\(key)': it has 'value' or \"close\": true")
        }
        switch (r["value"], r["close"]) {
        case (let message?, nil):
            return InputLine(channel: name, message: message, at: at)
        case (nil, .bool(true)?):
            return InputLine(channel: name, message: nil, at: at)
        default:
            throw InputError(line: line, message: "a channel line has either a 'value' or \"close\": true")
        }
    }

    /// An `at`: whole milliseconds, not negative.
    private static func time(_ value: Value, line: Int) throws(InputError) -> Int {
        guard let ms = Evaluator.integer(value), ms >= 0 else {
            if case .double(let d) = value, d >= 0x1p63, d.rounded() == d {
                throw InputError(line: line, message: "'at' is too large: the clock counts milliseconds below 2^63")
            }
            throw InputError(line: line, message: "'at' must be a whole number of milliseconds ≥ 0")
        }
        return ms
    }

    private enum TypeField { case string, absent, other }

    /// What the record's `type` holds, read in place: the subscript returns a copy of the
    /// value, to be destroyed again.
    private static func typeField(of value: Value) -> TypeField {
        guard case .record(let r) = value else { return .absent }
        return r.withValue(forKey: "type") { type in
            if case .string = type { return .string }
            return .other
        } ?? .absent
    }
}
