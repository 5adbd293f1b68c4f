/// What ``GoldenTests/run(_:host:)-(String...,_)`` found: the tests that passed, and how each
/// other one failed.
///
/// Its description says both, with a diff of each failed transcript.
public struct GoldenReport: Sendable, CustomStringConvertible {
    /// A test that failed, or a path that holds none.
    public struct Failure: Sendable {
        /// The `.saga` file (or the path given).
        public var saga: String
        /// Why: a diff of the transcript, the mocks' problems, the run's standard error.
        public var message: String
    }

    /// The `.saga` files whose transcripts matched.
    public var passed: [String] = []
    /// The tests that did not pass.
    public var failures: [Failure] = []

    /// Whether at least one test ran and every one passed.
    public var isSuccess: Bool { failures.isEmpty && !passed.isEmpty }

    /// `N passed, N failed`, then each failure with its message.
    public var description: String {
        var text = "\(passed.count) passed, \(failures.count) failed"
        if passed.isEmpty, failures.isEmpty { text += " (no golden tests found)" }
        for failure in failures { text += "\nFAIL \(failure.saga)\n\(failure.message)" }
        return text
    }
}
