/// The exit codes of `sagarun` (see “Exit codes” in Sagas/README.md; they follow BSD's
/// sysexits).
package enum ExitCode: Int32, Sendable {
    /// Success.
    case success = 0
    /// A root saga (or a spawned task) failed, or a golden test did not match.
    case failure = 1
    /// Bad command-line usage.
    case usage = 64
    /// Invalid saga source or malformed input data.
    case dataError = 65
    /// A file that cannot be read.
    case noInput = 66
    /// A store that cannot be opened or written.
    case ioError = 74
    /// The run was stopped by SIGINT (128 + 2), once it had ended cleanly.
    case interrupted = 130
    /// The run was stopped by SIGTERM (128 + 15), once it had ended cleanly.
    case terminated = 143
}
