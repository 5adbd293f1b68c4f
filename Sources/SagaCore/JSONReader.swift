/// A strict RFC 8259 JSON reader that turns text into a ``Value``.
///
/// It rejects what RFC 8259 rejects (trailing commas, comments, leading zeros, `NaN`,
/// invalid UTF-8, lone surrogates in `\u` escapes, anything after the value) and nesting
/// deeper than ``maxDepth``, always with a ``JSONError`` that names the line and column.
/// Integers that fit `Int` become `.int`; every other number (`1.0`, `1e3`, a huge
/// integer) becomes `.double`. In an object, a later duplicate key wins.
///
/// ```swift
/// let action = try JSONReader.parse(#"{"type":"counter/add","by":2}"#)
/// action["by"]   // .int(2)
/// ```
public enum JSONReader {
    /// The deepest nesting of arrays and objects that the reader accepts.
    public static let maxDepth = 512

    /// Reads one JSON value from `text`.
    ///
    /// - Parameter text: The whole JSON text; white space around the value is allowed.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` when the text is not exactly one valid JSON value.
    public static func parse(_ text: String) throws(JSONError) -> Value {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONError) -> Value in try parse(buffer: buffer) }
        }
        return try result.get()
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Parameter bytes: The whole JSON text as UTF-8; invalid UTF-8 is an error.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` when the bytes are not exactly one valid JSON value.
    public static func parse(bytes: UnsafeRawBufferPointer) throws(JSONError) -> Value {
        try parse(buffer: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Reads one JSON value from UTF-8 bytes.
    ///
    /// - Parameter bytes: The whole JSON text as UTF-8; invalid UTF-8 is an error.
    /// - Returns: The value.
    /// - Throws: ``JSONError`` when the bytes are not exactly one valid JSON value.
    public static func parse(bytes: some Collection<UInt8>) throws(JSONError) -> Value {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONError) -> Value in try parse(buffer: buffer) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) -> Value in try parse(buffer: buffer) }
        }.get()
    }

    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONError) -> Value {
        var parser = Parser(buffer)
        return try parser.parseDocument()
    }
}
