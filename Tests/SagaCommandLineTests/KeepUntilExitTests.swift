import Foundation
import SagaCommandLine
import SagaLanguage
import SagaRuntime
import Testing

/// `sagarun` does not free a compiled program on its way out (the exit gives the memory back
/// at once, and freeing a large file's tree takes a large share of `check`); tests, which run many
/// commands in one process, still free theirs.
@Suite struct KeepUntilExitTests {
    /// Something whose freeing a weak reference sees.
    final class Probe: Sendable {}

    /// Records what a command hands over to be kept, and captures the rest.
    final class KeepingIO: ToolIO {
        let captured = CapturedIO()
        var kept: [any Sendable] = []
        var runOutput: RunOutput { captured.runOutput }
        var errorIsTerminal: Bool { false }
        var outputIsTerminal: Bool { false }
        func out(_ text: String) { captured.out(text) }
        func err(_ text: String) { captured.err(text) }
        func keepUntilExit(_ value: any Sendable) { kept.append(value) }
    }

    /// The programs each command hands over, given a file that compiles (`ok.saga`, beside
    /// `in.jsonl`, an input file).
    func keptResults(_ args: (String) -> [String]) async -> [CompileResult] {
        var results: [CompileResult] = []
        let files = ["ok.saga": "saga main { log \"hi\" }", "in.jsonl": "{\"type\":\"a\"}\n"]
        await ExitCodeTests.withFiles(files) { dir in
            let io = KeepingIO()
            let code = await SagaRunTool.main(args(dir.appendingPathComponent("ok.saga").path), io: io)
            #expect(code == 0, "\(io.captured.stderr)")
            results = io.kept.compactMap { $0 as? CompileResult }
        }
        return results
    }

    @Test func everyCommandThatCompilesAFileHandsItsProgramOver() async {
        let input = { (file: String) in file.replacingOccurrences(of: "ok.saga", with: "in.jsonl") }
        for args in [
            { ["check", "--input", input($0), $0] }, { ["check", "--format", "json", "--input", input($0), $0] },
            { ["run", $0, "--virtual-time", "--memory"] }, { ["ast", $0] },
        ] as [(String) -> [String]] {
            let results = await keptResults(args)
            #expect(results.count == 1, "\(args("FILE"))")
            #expect(results.first?.program != nil, "\(args("FILE"))")
        }
    }

    /// Without `--input`, `check` needs no program: it checks each declaration as it is parsed
    /// and lets it go (`Frontend.check`), so there is no tree to keep.
    @Test func checkAloneBuildsNoProgramToKeep() async {
        for args in [{ ["check", $0] }, { ["check", "--format", "json", $0] }] as [(String) -> [String]] {
            #expect(await keptResults(args).isEmpty, "\(args("FILE"))")
        }
    }

    /// Whether `io` still holds a value it was handed once nothing else does.
    static func keeps(_ io: ToolIO) -> Bool {
        weak var probe: Probe?
        do {
            let handed = Probe()
            probe = handed
            io.keepUntilExit(handed)
        }
        return probe != nil
    }

    @Test func theProcessKeepsWhatItIsHanded() {
        #expect(Self.keeps(ProcessIO()))
    }

    @Test func aCaptureLetsGoOfWhatItIsHanded() {
        #expect(!Self.keeps(CapturedIO()))
    }
}
