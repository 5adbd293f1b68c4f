/// Thrown inside the parser to unwind to the nearest statement or declaration, which then
/// skips ahead to a safe place.
///
/// The diagnostic was recorded when it was thrown.
struct ParseError: Error {}
