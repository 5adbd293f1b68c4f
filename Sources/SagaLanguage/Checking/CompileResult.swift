import SagaCore

/// What ``Frontend`` made of a program: the checked program, or the reasons there is none.
public struct CompileResult: Sendable {
    /// The checked program; `nil` when there are errors.
    public var program: Program?
    /// Errors, warnings and notes, in file, line and column order (a note follows the
    /// diagnostic it explains).
    public var diagnostics: [Diagnostic]
    /// Every file read, the root first, for rendering diagnostics.
    public var files: [SourceFile]
    /// Paths of files that could not be read (the command line exits 66 for these).
    public var unreadableFiles: [String]
    /// The host functions the program calls, forks or spawns, by name.
    package var hostCallees: Set<String> = []

    /// Creates a result.
    package init(program: Program?, diagnostics: [Diagnostic], files: [SourceFile], unreadableFiles: [String]) {
        self.program = program
        self.diagnostics = diagnostics
        self.files = files
        self.unreadableFiles = unreadableFiles
    }

    /// Whether any diagnostic is an error (warnings and notes do not count).
    public var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }

    /// Every diagnostic rendered as swiftc does (location, message, source line, caret),
    /// one after another, each ending with a newline; empty when there are none.
    public var renderedDiagnostics: String {
        diagnostics.map { $0.rendered(files: files) + "\n" }.joined()
    }
}
