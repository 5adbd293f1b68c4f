import SagaCore

/// Why ``SagaFormatter/format(_:)`` left a file as it was.
///
/// A file that does not parse is never formatted: ``diagnostics`` holds the lexical and
/// syntax errors (with file index 0, so `diagnostic.rendered(files: [file])` prints them).
/// The formatter also refuses to hand back text that would parse to a different program
/// (``Code/wouldChangeProgram``); that is a bug in the formatter, never in the file.
package struct FormatError: Error, Sendable, Equatable {
    /// What kind of failure this is; an opaque code, so that new codes break no `switch`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String

        /// The source has lexical or syntax errors (see ``FormatError/diagnostics``).
        package static let invalidSource = Code(name: "invalidSource")
        /// The formatted text would not parse to the same program; the file is left alone.
        package static let wouldChangeProgram = Code(name: "wouldChangeProgram")

        /// The code's name.
        package var description: String { name }
    }

    /// What kind of failure this is.
    package var code: Code
    /// A one-line explanation.
    package var message: String
    /// The lexical and syntax errors of the source (empty for other codes).
    package var diagnostics: [Diagnostic]

    /// Creates a format error.
    package init(code: Code, message: String, diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }
}
