import SagaCore

/// One outside action, or a message for an event channel, with the time it is due when the
/// line names one.
struct InputLine {
    /// The action, or the channel's message.
    var action: Value
    var at: Int?
    /// The event channel the line is for (`{"channel": NAME, …}`), or `nil` for an action.
    var channel: String? = nil
    /// Set for `{"channel": NAME, "close": true}`.
    var closesChannel = false

    /// The action, moved out of the line (reading `action` copies it).
    consuming func takeAction() -> Value { action }

    /// Reads one line's UTF-8 bytes as they are (no `String` in between), or `nil` for a
    /// blank line (spaces and tabs only): invalid UTF-8 is a malformed line, like any other
    /// JSON error.
    static func parse(unlessBlank bytes: UnsafeBufferPointer<UInt8>, line: Int) throws(InputError) -> InputLine? {
        if bytes.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return nil }
        let value: Value
        do {
            value = try JSONReader.parse(bytes: UnsafeRawBufferPointer(bytes))
        } catch {
            throw InputError(line: line, message: "\(error.message) (column \(error.column))")
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
            return InputLine(action: message, at: at, channel: name)
        case (nil, .bool(true)?):
            return InputLine(action: .null, at: at, channel: name, closesChannel: true)
        default:
            throw InputError(line: line, message: "a channel line has either a 'value' or \"close\": true")
        }
    }

    /// An `at`: whole milliseconds, not negative.
    private static func time(_ value: Value, line: Int) throws(InputError) -> Int {
        guard let ms = Evaluator.integer(value), ms >= 0 else {
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
