import SagaCore

/// One outside action, with the time it is due when the line names one.
struct InputLine {
    var action: Value
    var at: Int?

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
        guard let at = r["at"], let action = r["action"] else {
            throw InputError(
                line: line, message: "expected an action with a string 'type', or {\"at\": MS, \"action\": {…}}")
        }
        guard let ms = Evaluator.integer(at), ms >= 0 else {
            throw InputError(line: line, message: "'at' must be a whole number of milliseconds ≥ 0")
        }
        guard case .record(let a) = action, case .string? = a["type"] else {
            throw InputError(line: line, message: "'action' must be a record with a string 'type'")
        }
        return InputLine(action: action, at: ms)
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
