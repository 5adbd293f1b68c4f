import Foundation
import SagaCommandLine
import Testing

/// How the commands read the files they are given: a byte-order mark an editor put first is
/// dropped, and a file that cannot be read is refused with the reason, whichever command
/// reads it.
@Suite struct FileReadingTests {
    static let bom = "\u{FEFF}"

    @Test func aByteOrderMarkIsDroppedFromASagaFileAndAnInputFile() async {
        await ExitCodeTests.withFiles([
            "bom.saga": Self.bom + "saga main {\n  let a = take \"a\"\n  log a.n\n}\n",
            "in.jsonl": Self.bom + "{\"type\":\"a\",\"n\":1}\n",
        ]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("bom.saga").path, "--input",
                dir.appendingPathComponent("in.jsonl").path,
            ])
            #expect(r.code == 0, "\(r.err)")
            #expect(r.out == "1\n")
            // `fmt` writes the file without it.
            let check = await runSagarun(["fmt", "--check", dir.appendingPathComponent("bom.saga").path])
            #expect(check.code == 1)
            #expect(await runSagarun(["fmt", dir.appendingPathComponent("bom.saga").path]).code == 0)
            let formatted = try? String(contentsOf: dir.appendingPathComponent("bom.saga"), encoding: .utf8)
            #expect(formatted == "saga main {\n  let a = take \"a\"\n  log a.n\n}\n")
        }
    }

    @Test func fmtSaysWhyItCannotReadAFile() async {
        await ExitCodeTests.withFiles(["ok.saga": "saga main { log 1 }\n"]) { dir in
            let missing = await runSagarun(["fmt", dir.appendingPathComponent("nope.saga").path])
            #expect(missing.code == 66)
            #expect(missing.err.hasSuffix("nope.saga': no such file\n"))
            let empty = dir.appendingPathComponent("empty")
            try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
            let folder = await runSagarun(["fmt", empty.path])
            #expect(folder.code == 66)
            #expect(folder.err == "error: no .saga file under '\(empty.path)'\n")
            try? Data([0xFF, 0xFE, 0x41]).write(to: dir.appendingPathComponent("bin.saga"))
            let binary = await runSagarun(["fmt", dir.appendingPathComponent("bin.saga").path])
            #expect(binary.code == 65)
            #expect(binary.err.hasSuffix("bin.saga' is not valid UTF-8\n"))
        }
    }

    /// A folder given to `check` or `fmt` stands for every `.saga` file under it.
    @Test func checkAndFmtTakeAFolderAsItsSagaFiles() async throws {
        try await ExitCodeTests.withFiles(["a.saga": "saga main { log 1 }\n", "notes.txt": "x"]) { dir in
            let sub = dir.appendingPathComponent("sub")
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
            try "saga main {\n    log x\n}\n".write(
                to: sub.appendingPathComponent("b.saga"), atomically: true, encoding: .utf8)
            let checked = await runSagarun(["check", dir.path])
            #expect(checked.code == 65)
            #expect(checked.err.contains("sub/b.saga:2:"), "\(checked.err)")
            let formatted = await runSagarun(["fmt", "--check", dir.path])
            #expect(formatted.code == 1)
            #expect(formatted.out.contains("sub/b.saga"), "\(formatted.out)")
            #expect(!formatted.out.contains("a.saga"), "\(formatted.out)")
        }
    }

    /// A file with no saga and no reducer (functions that other files import) runs nothing,
    /// and `run` says so.
    @Test func runningAFileOfFunctionsSaysThatNothingRuns() async {
        await ExitCodeTests.withFiles(["lib.saga": "func f() { return 1 }\n"]) { dir in
            let path = dir.appendingPathComponent("lib.saga").path
            let r = await runSagarun(["run", path])
            #expect(r.code == 0)
            #expect(r.err == "warning: \(path) declares no saga and no reducer, so nothing runs\n")
        }
    }

    @Test func anInputOrMocksFileThatCannotBeReadIsRefusedWithTheReason() async {
        await ExitCodeTests.withFiles(["ok.saga": "saga main { log 1 }\n"]) { dir in
            let saga = dir.appendingPathComponent("ok.saga").path
            let input = await runSagarun(["run", saga, "--input", dir.appendingPathComponent("nope.jsonl").path])
            #expect(input.code == 66)
            #expect(input.err.hasSuffix("nope.jsonl': no such file\n"))
            let folder = await runSagarun(["check", saga, "--input", dir.path])
            #expect(folder.code == 66)
            #expect(folder.err.hasSuffix("': it is a folder\n"))
            let mocks = await runSagarun(["run", saga, "--mocks", dir.appendingPathComponent("nope.jsonl").path])
            #expect(mocks.code == 66)
            #expect(mocks.err.hasSuffix("nope.jsonl': no such file\n"))
        }
    }
}
