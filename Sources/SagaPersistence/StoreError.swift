/// An error of an element store: a bad element or query, a locked, corrupt or newer store,
/// or a failed system call.
///
/// The code is an opaque struct, so that new codes never break a caller's `switch`:
///
/// ```swift
/// do { _ = try await store.save(entity: "users", element: 42) }
/// catch where error.code == .invalidElement { print(error.message) }
/// ```
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public var code: Code
    /// A sentence for a human: what failed and why.
    public var message: String
    /// The file the error is about, if any.
    public var path: String?
    /// The byte offset in `path` the error is about, if any.
    public var offset: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, path: String? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
    }

    /// The message, followed by the file and offset when there are any.
    public var description: String {
        var text = message
        if let path {
            text += " (\(path)"
            if let offset { text += " at offset \(offset)" }
            text += ")"
        }
        return text
    }
}

extension StoreError {
    static func invalidElement(_ message: String) -> StoreError { StoreError(.invalidElement, message) }
    static func invalidQuery(_ message: String) -> StoreError { StoreError(.invalidQuery, message) }
    static var closed: StoreError { StoreError(.closed, "the store is closed") }
}

extension StoreError: Equatable {}

/// `{"code": "io", "message": "…", "path": "…", "offset": 12}`, the last two when there are any.
extension StoreError: Codable {}
