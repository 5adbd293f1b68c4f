import Foundation
import SagaCore
import Testing

/// Diagnostics in colour, for a terminal.
@Suite struct DiagnosticColorTests {
    @Test func colorsMarkTheSeverityAndTheCaretOnly() {
        let file = SourceFile(path: "a.saga", text: "saga a {\n  log x\n}\n")
        let d = Diagnostic.error("unknown variable 'x'", at: SourceLocation(file: 0, line: 2, column: 7))
        let plain = d.rendered(files: [file])
        #expect(plain == "a.saga:2:7: error: unknown variable 'x'\n  log x\n      ^")
        let colored = d.rendered(files: [file], colors: true)
        #expect(colored.contains("\u{1B}[1;31merror:\u{1B}[0m"))
        #expect(colored.hasSuffix("      \u{1B}[1;32m^\u{1B}[0m"))
        #expect(colored.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) == plain)
        #expect(d.rendered(files: [file], colors: false) == plain)
    }
}
