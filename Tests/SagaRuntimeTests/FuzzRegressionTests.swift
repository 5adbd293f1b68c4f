import Foundation
import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// Every input in `FuzzRegressions/FuzzInterpreter/` (a program, a line `%%`, its input lines),
/// run as the `FuzzInterpreter` target runs it: each must end, with its budgets, and say why
/// when it was stopped.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions/FuzzInterpreter")

    static var inputs: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func theFolderIsThere() {
        #expect(Self.inputs.count >= 2)
    }

    @Test(arguments: inputs) func runsToItsEnd(_ file: URL) async throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        let separator = Array("\n%%\n".utf8)
        let cut = bytes.firstRange(of: separator)
        let program = String(decoding: cut.map { bytes[..<$0.lowerBound] } ?? bytes[...], as: UTF8.self)
        let lines =
            cut.map { String(decoding: bytes[$0.upperBound...], as: UTF8.self) }?
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init) ?? []
        let compiled = Frontend().compile(source: program, path: file.lastPathComponent)
        guard let checked = compiled.program else {
            // A crasher of the front end: that it compiled without crashing is the test.
            #expect(compiled.hasErrors)
            return
        }
        var options = Interpreter.Options(virtualTime: true, printActions: true, printState: true, timestamps: true)
        options.maxSteps = 10_000
        options.maxCallDepth = 200
        options.maxRunSteps = 200_000
        let output = BufferedOutput()
        let status = await Interpreter(program: checked, options: options, output: output)
            .run(input: InputSource(lines: lines))
        #expect(output.lines.last?.hasPrefix("@") == true, "the run ends with its state line")
        if status == .sagaFailed {
            #expect(!output.errors.isEmpty, "a failed run says why")
        }
    }
}
