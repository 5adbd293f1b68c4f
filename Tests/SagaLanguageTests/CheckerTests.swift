import SagaCore
import Testing

@testable import SagaLanguage

/// Compiles source text through the whole frontend and shows what came out in a form a test
/// can compare at a glance.
enum CheckerTests {
    /// The diagnostics of `source` as `LINE:COLUMN: severity: message`.
    static func diagnostics(_ source: String, hostFunctions: Set<String> = []) -> [String] {
        compile(source, hostFunctions: hostFunctions).diagnostics.map {
            "\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message)"
        }
    }

    /// The errors and their notes (no warnings), rendered as `LINE:COL: severity: message`.
    static func errorsAndNotes(_ source: String, hostFunctions: Set<String> = []) -> [String] {
        diagnostics(source, hostFunctions: hostFunctions).filter { !$0.contains(": warning: ") }
    }

    /// The whole result of compiling `source` as the root file `test.saga`.
    static func compile(_ source: String, hostFunctions: Set<String> = []) -> CompileResult {
        Frontend(hostFunctions: hostFunctions).compile(source: source, path: "test.saga")
    }

    /// The errors only (no warnings or notes).
    static func errors(_ source: String, hostFunctions: Set<String> = []) -> [String] {
        diagnostics(source, hostFunctions: hostFunctions).filter { $0.contains(": error: ") }
    }
}
