/// Canonical JSON (see “Canonical JSON” in Sagas/README.md): the one text form of a value that
/// transcripts, `json(x)`, `log` and string interpolation use.
extension Value {
    /// The value as canonical JSON: keys sorted by Unicode scalar value, no white space,
    /// integral numbers within ±2^53 as integers, other numbers in their shortest round-trip
    /// form, non-finite numbers as `null`, handles as `"<task N>"` / `"<channel N>"`.
    ///
    /// ```swift
    /// let action: Value = ["type": "counter/add", "by": 2.0]
    /// action.canonicalJSON   // {"by":2,"type":"counter/add"}
    /// ```
    ///
    /// A text past ``maxTextBytes`` is cut there and ends with `…` (only a value whose parts are
    /// shared many times over can be that long); `checkedCanonicalJSON()` throws instead.
    public var canonicalJSON: String {
        CanonicalJSONWriter.withCanonicalJSON(of: self) { String(decoding: $0, as: UTF8.self) + ($1 ? "…" : "") }
    }

    /// The value as canonical JSON, for `json(x)`.
    ///
    /// - Parameter limit: the longest text accepted, in UTF-8 bytes.
    /// - Returns: the canonical JSON text.
    /// - Throws: a `RangeError` when the text would be longer than `limit`.
    public func checkedCanonicalJSON(limit: Int = Value.maxTextBytes) throws(SagaError) -> String {
        let text = CanonicalJSONWriter.withCanonicalJSON(of: self, limit: limit) {
            $1 ? nil : String(decoding: $0, as: UTF8.self)
        }
        guard let text else {
            if limit == Value.maxTextBytes { throw Value.textTooLong }
            throw SagaError(kind: "RangeError", message: "the text would be longer than \(limit) bytes")
        }
        return text
    }

    /// ``displayString``, for `str(x)`, `join` and interpolation.
    ///
    /// - Throws: a `RangeError` when the text would be longer than ``maxTextBytes``.
    public func checkedDisplayString() throws(SagaError) -> String {
        if case .string(let s) = self { return s }
        return try checkedCanonicalJSON()
    }

    /// Appends the value's canonical JSON to `text`.
    ///
    /// - Parameter text: The string to append to; its existing contents are kept.
    public func writeCanonicalJSON(into text: inout String) {
        CanonicalJSONWriter.withCanonicalJSON(of: self) { bytes, truncated in
            text.append(String(decoding: bytes, as: UTF8.self))
            if truncated { text.append("…") }
        }
    }

    /// Hands the value's canonical JSON, as UTF-8 that stays valid only during the call, to
    /// `body` (for writers with buffers of their own); a text cut at its limit ends with `…`.
    package func withCanonicalJSON(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        CanonicalJSONWriter.withCanonicalJSON(of: self) { text, truncated in
            guard truncated else { return body(text) }
            let whole = Array(text) + Array("…".utf8)
            return whole.withUnsafeBufferPointer(body)
        }
    }

    /// Appends the value's canonical JSON, as UTF-8, to `bytes` (for writers of files and pipes).
    ///
    /// - Parameter bytes: The buffer to append to; its existing contents are kept.
    public func writeCanonicalJSON(into bytes: inout [UInt8]) {
        CanonicalJSONWriter.withCanonicalJSON(of: self) { text, truncated in
            bytes.append(contentsOf: text)
            if truncated { bytes.append(contentsOf: "…".utf8) }
        }
    }

    /// The value as `log` and `"\(x)"` interpolation show it: a string as is, anything else
    /// as canonical JSON.
    ///
    /// ```swift
    /// Value.string("hi").displayString   // hi
    /// Value.list([1, "a"]).displayString // [1,"a"]
    /// ```
    public var displayString: String {
        if case .string(let s) = self { return s }
        return canonicalJSON
    }
}
