/// Why a JSON text could not be read, and where: 1-based line and column (in Unicode
/// scalars) of the offending character.
///
/// ```swift
/// do { _ = try JSONReader.parse("[1,]") } catch {
///     print(error)   // 1:4: unexpected ']'; expected a value
/// }
/// ```
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, without the location.
    public var message: String
    /// 1-based line of the offending character.
    public var line: Int
    /// 1-based column of the offending character, counted in Unicode scalars.
    public var column: Int

    /// Creates an error.
    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN: MESSAGE`.
    public var description: String { "\(line):\(column): \(message)" }
}
