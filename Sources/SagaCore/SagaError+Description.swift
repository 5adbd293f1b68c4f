extension SagaError: CustomStringConvertible {
    /// `Kind: message`, as an error record reads (the message alone when it has no kind).
    ///
    /// ```swift
    /// print(SagaError(kind: "TypeError", message: "expected a number"))   // TypeError: expected a number
    /// ```
    public var description: String {
        kind.map { "\($0): \(message)" } ?? message
    }
}
