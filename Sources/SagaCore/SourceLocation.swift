/// A place in a source file: which file (an index into the program's file table), and the
/// 1-based line and column (in Unicode scalars) where something starts.
public struct SourceLocation: Sendable, Hashable {
    /// Index of the file in the ``SourceFile`` table of the program being compiled.
    public var file: Int32
    /// 1-based line number.
    public var line: Int32
    /// 1-based column, counted in Unicode scalars.
    public var column: Int32

    /// Creates a location.
    public init(file: Int32 = 0, line: Int32, column: Int32) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// A location for things that come from no source text.
    public static let unknown = SourceLocation(file: -1, line: 0, column: 0)
}

/// A source file: its path as the user named it, and its text.
public struct SourceFile: Sendable {
    /// The path as given (shown in diagnostics).
    public var path: String
    /// The whole text.
    public var text: String

    /// Creates a source file.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// The text of 1-based line `line`, without its line break; empty when out of range.
    public func line(_ line: Int) -> String {
        var current = 1
        var start = text.utf8.startIndex
        let utf8 = text.utf8
        var i = utf8.startIndex
        while i < utf8.endIndex {
            if current == line { break }
            if utf8[i] == UInt8(ascii: "\n") {
                current += 1
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        guard current == line else { return "" }
        var end = start
        while end < utf8.endIndex, utf8[end] != UInt8(ascii: "\n"), utf8[end] != UInt8(ascii: "\r") {
            end = utf8.index(after: end)
        }
        return String(text[start..<end])
    }
}
