/// Something in the input that is valid, but most likely not what was meant: an action with an
/// `at` beside its `type`, or a timed line earlier than the one before it.
package struct InputWarning: Sendable, Equatable {
    /// The 1-based line number, or `nil` for a warning about several lines.
    package var line: Int?
    /// What the line does, and what was most likely meant.
    package var message: String

    /// The warning as diagnostics say where they are, as ``InputError/described(in:)`` does:
    /// `NAME:LINE: warning: MESSAGE`, or `NAME: warning: MESSAGE` without a line.
    package func described(in name: String?) -> String {
        let name = name ?? "input"
        return "\(name):" + (line.map { "\($0):" } ?? "") + " warning: \(message)"
    }
}
