import Foundation
import Testing

@testable import SagaCommandLine

/// `sagarun test --update` writes a golden from standard output alone, and says so when the
/// run also reported errors.
@Suite struct GoldenUpdateTests {
    /// A program whose root saga fails gets its golden, with a note that names the error.
    @Test func aFailedRunIsNotedWhenItsGoldenIsWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saga = folder.appendingPathComponent("broken.saga").path
        try "saga main {\n  log \"before\"\n  if null { log \"never\" }\n}\n".write(
            toFile: saga, atomically: true, encoding: .utf8)
        let run = await runSagarun(["test", "--update", saga])
        #expect(run.code == 0)
        #expect(run.out.contains("CREATED"), "\(run.out)")
        #expect(run.out.contains("note: the run exited with 1"), "\(run.out)")
        #expect(run.out.contains("a condition must be a bool"), "\(run.out)")
        let golden = try String(contentsOfFile: folder.appendingPathComponent("broken.golden").path, encoding: .utf8)
        #expect(golden.hasPrefix("before\n"), "\(golden)")
    }

    /// A run that a limit stopped is noted as such (a golden test then fails, and `--update`
    /// writes no golden); one that ends on its own, or fails, is not.
    @Test func aRunStoppedByALimitIsNoted() async throws {
        let spin = "saga main {\n  var i = 0\n  while i < 1000 { i = i + 1 }\n  log i\n}\n"
        await ExitCodeTests.withFiles(["spin.saga": spin]) { dir in
            let saga = dir.appendingPathComponent("spin.saga").path
            for (limit, stopped) in [("50", true), ("100000", false)] {
                let io = CapturedIO()
                let code = await SagaRunTool.main(["run", saga, "--virtual-time", "--max-run-steps", limit], io: io)
                #expect(io.runStoppedByLimit == stopped, "\(io.stderr)")
                #expect(code == (stopped ? 1 : 0))
            }
        }
    }

    /// A run without errors gets no note.
    @Test func aCleanRunHasNoNote() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saga = folder.appendingPathComponent("fine.saga").path
        try "saga main { log \"hi\" }\n".write(toFile: saga, atomically: true, encoding: .utf8)
        let run = await runSagarun(["test", "--update", saga])
        #expect(run.code == 0)
        #expect(run.out.contains("CREATED") && !run.out.contains("note:"), "\(run.out)")
    }

    /// A golden file written with `\r\n` line ends, without a newline after its last line, with
    /// a lone `\r` there, or with a byte-order mark first, stands for the same transcript; one
    /// that differs still fails, with the lines that differ.
    @Test(arguments: [
        ("hi\r\nstate {}\r\n", true), ("hi\nstate {}", true), ("hi\nstate {}\r", true),
        ("\u{FEFF}hi\nstate {}\n", true),
        ("ho\r\nstate {}", false),
    ])
    func lineEndsOfAGoldenDoNotMatter(golden: String, passes: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let saga = folder.appendingPathComponent("fine.saga").path
        try "saga main { log \"hi\" }\n".write(toFile: saga, atomically: true, encoding: .utf8)
        try golden.write(toFile: folder.appendingPathComponent("fine.golden").path, atomically: true, encoding: .utf8)
        let run = await runSagarun(["test", saga])
        #expect(run.code == (passes ? 0 : 1), "\(run.out)")
        if !passes { #expect(run.out.contains("-ho\n+hi\n"), "\(run.out)") }
    }

    /// A test without a golden whose program does not run says why, rather than sending the
    /// user to `--update`, which cannot write one.
    @Test func aTestWithoutAGoldenThatDoesNotRunSaysWhy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "saga main { log x }\n".write(
            toFile: folder.appendingPathComponent("bad.saga").path, atomically: true, encoding: .utf8)
        try "{\"type\":\"a\"}\n".write(
            toFile: folder.appendingPathComponent("bad.input.jsonl").path, atomically: true, encoding: .utf8)
        let run = await runSagarun(["test", folder.path])
        #expect(run.code == 1)
        #expect(run.out.contains("it does not run (exit 65)"), "\(run.out)")
        #expect(run.out.contains("unknown variable 'x'"), "\(run.out)")
        #expect(!run.out.contains("run 'sagarun test --update"), "\(run.out)")
    }

    /// A program that does not compile fails its test even against an empty golden, which its
    /// empty transcript would otherwise match; and under `--inject-failures`, where no failure
    /// could be injected, it fails rather than passing with a report of why.
    @Test(arguments: [[String](), ["--inject-failures"]])
    func aProgramThatDoesNotCompileFails(flags: [String]) async throws {
        await ExitCodeTests.withFiles(["broken.saga": "saga main { log nmae }\n", "broken.golden": ""]) { folder in
            let saga = folder.appendingPathComponent("broken.saga").path
            let run = await runSagarun(["test"] + flags + [saga])
            #expect(run.code == 1, "\(run.out)")
            #expect(run.out.contains("FAIL") && run.out.contains("it did not run"), "\(run.out)")
            #expect(run.out.contains("unknown variable 'nmae'"), "\(run.out)")
            #expect(run.out.contains("0 passed, 1 failed"), "\(run.out)")
            let update = await runSagarun(["test", "--update"] + flags + [saga])
            #expect(update.code == 1, "\(update.out)")
            #expect(
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent("broken.failures.golden").path))
        }
    }

    /// A program whose input cannot be read does not run, under `--inject-failures` too: it
    /// fails, and `--update` writes no report from runs made without its input.
    @Test func aProgramWhoseInputCannotBeReadFailsUnderInjectedFailures() async throws {
        let files = ["reads.saga": "saga main { let a = take \"go\"; log a.type }\n", "reads.golden": "go\nstate {}\n"]
        try await ExitCodeTests.withFiles(files) { folder in
            // A folder where the input file would be: found, but not readable as one.
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("reads.input.jsonl"), withIntermediateDirectories: true)
            let saga = folder.appendingPathComponent("reads.saga").path
            for flags in [["--inject-failures"], ["--inject-failures", "--update"]] {
                let run = await runSagarun(["test"] + flags + [saga])
                #expect(run.code == 1, "\(run.out)")
                #expect(run.out.contains("it did not run"), "\(run.out)")
                #expect(run.out.contains("cannot read the input file"), "\(run.out)")
            }
            #expect(
                !FileManager.default.fileExists(atPath: folder.appendingPathComponent("reads.failures.golden").path))
        }
    }

    /// A test whose mocks do not fit its run (a line no call uses) gets no golden: without a
    /// golden, the tool says so and what to do, shows no diff against a file that is not
    /// there, and `--update` says why it writes nothing.
    @Test func aTestWhoseMocksDoNotFitSaysSoAndGetsNoGolden() async throws {
        let files = [
            "m.saga": "extern func api.get(id)\nsaga main { let u = call api.get(1); log u }\n",
            "m.mocks.jsonl": #"{"call":"api.get","args":[1],"result":"one"}"# + "\n"
                + #"{"call":"api.get","args":[3],"result":"three"}"# + "\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let saga = folder.appendingPathComponent("m.saga").path
            let plain = await runSagarun(["test", saga])
            #expect(plain.code == 1, "\(plain.out)")
            #expect(plain.out.contains("NO GOLDEN \(saga): its mocks do not fit the run"), "\(plain.out)")
            #expect(plain.out.contains("line 2 of"), "\(plain.out)")
            #expect(plain.out.contains("mark it \"optional\": true"), "\(plain.out)")
            let update = await runSagarun(["test", "--update", saga])
            #expect(update.code == 1, "\(update.out)")
            #expect(update.out.contains("no golden was written: the mocks must fit the run first"), "\(update.out)")
            #expect(!update.out.contains("+++"), "\(update.out)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("m.golden").path))
        }
    }

    /// A test that passes although its run failed names the run's first error, not a warning
    /// printed before it.
    @Test func aPassingRunThatFailedIsNotedWithItsErrorNotAWarning() async {
        let files = [
            "w.saga": "saga main {\n  let r = { a: 1, a: 2 }\n  log r.a\n  throw \"boom\"\n}\n",
            "w.golden": "2\nstate {}\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let run = await runSagarun(["test", folder.appendingPathComponent("w.saga").path])
            #expect(run.code == 0, "\(run.out)")
            #expect(run.out.contains("not in the golden: error: saga main failed: boom"), "\(run.out)")
        }
    }

    /// `--inject-failures --update` says whether it created a report, updated one, or found it
    /// unchanged.
    @Test func injectedFailuresUpdateSaysWhatItDid() async {
        let files = [
            "f.saga": "extern func api.get(id)\nsaga main { let u = call api.get(1); log u }\n",
            "f.mocks.jsonl": #"{"call":"api.get","args":[1],"result":"one"}"# + "\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let saga = folder.appendingPathComponent("f.saga").path
            let first = await runSagarun(["test", "--inject-failures", "--update", saga])
            #expect(first.out.contains("CREATED"), "\(first.out)")
            let again = await runSagarun(["test", "--inject-failures", "--update", saga])
            #expect(again.out.contains("PASS \(saga) (failure injection)"), "\(again.out)")
            #expect(!again.out.contains("UPDATED") && !again.out.contains("CREATED"), "\(again.out)")
        }
    }

    /// An input file named as a run's would be (`X.jsonl`) is not a test's input: the test says
    /// so, and what the name must be.
    @Test func anInputFileWithoutItsTestNameIsPointedOut() async {
        let files = [
            "t.saga": "saga main { log \"hi\" }\n", "t.golden": "hi\nstate {}\n", "t.jsonl": "{\"type\":\"a\"}\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let saga = folder.appendingPathComponent("t.saga").path
            let run = await runSagarun(["test", saga])
            #expect(run.code == 0, "\(run.out)")
            #expect(
                run.out.contains(
                    "note: \(folder.appendingPathComponent("t.jsonl").path) is not read: a test's input lines are in "),
                "\(run.out)")
            #expect(run.out.contains("t.input.jsonl"), "\(run.out)")
        }
    }

    /// So are input and mocks files whose names are near a test's (`X.input.json`,
    /// `X.mock.jsonl`), but not the files of another program whose name begins the same
    /// (`X.v2.input.jsonl` is `X.v2.saga`'s).
    @Test func nearMissCompanionNamesArePointedOut() async {
        let files = [
            "t.saga": "saga main { log \"hi\" }\n", "t.golden": "hi\nstate {}\n", "t.input.json": "{\"type\":\"a\"}\n",
            "t.mock.jsonl": "{\"call\":\"f\"}\n", "t.v2.saga": "saga main { log \"v2\" }\n",
            "t.v2.golden": "v2\naction {\"type\":\"a\"}\nstate {}\n",
            "t.v2.input.jsonl": "{\"type\":\"a\"}\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let run = await runSagarun(["test", folder.path])
            #expect(run.code == 0, "\(run.out)")
            for name in ["t.input.json", "t.mock.jsonl"] {
                #expect(
                    run.out.contains("note: \(folder.appendingPathComponent(name).path) is not read"), "\(run.out)")
            }
            #expect(!run.out.contains("t.v2.input.jsonl is not read"), "\(run.out)")
            #expect(run.out.contains("2 passed, 0 failed"), "\(run.out)")
        }
    }

    /// A test's golden, input or mocks file given runs its program.
    @Test func aGoldenFileGivenRunsItsProgram() async {
        let files = ["t.saga": "saga main { log \"hi\" }\n", "t.golden": "hi\nstate {}\n"]
        await ExitCodeTests.withFiles(files) { folder in
            let run = await runSagarun(["test", folder.appendingPathComponent("t.golden").path])
            #expect(run.code == 0, "\(run.out)")
            #expect(run.out.contains("PASS \(folder.appendingPathComponent("t.saga").path)"), "\(run.out)")
        }
    }

    /// A failure-injection report counts a mocks problem met again at once (a compensation run
    /// twice) rather than repeating its line; problems in between keep their order.
    @Test func aRepeatedMocksProblemIsCountedOnItsLine() {
        let lines = FailureInjection.problemLines([
            "unexpected call f(1)", "unexpected call f(1)", "line 3 was not used", "unexpected call f(1)",
        ])
        #expect(
            lines
                == "  mocks: unexpected call f(1) (2 times)\n  mocks: line 3 was not used\n  mocks: unexpected call f(1)\n"
        )
    }

    /// `--twice` goes with `--inject-failures`: alone it is a usage error, not ignored.
    @Test func twiceWithoutInjectedFailuresIsAUsageError() async {
        let run = await runSagarun(["test", "--twice", "."])
        #expect(run.code == 64, "\(run.out)\(run.err)")
        #expect(run.err.contains("--twice goes with --inject-failures"), "\(run.err)")
    }

    /// A golden written by `--update` passes the next run, whatever line ends the program
    /// logs: a logged `\r\n` reads back as a line break, as it does in a golden.
    @Test func aGoldenWrittenFromCarriageReturnsPassesTheNextRun() async throws {
        let files = [
            "cr.saga":
                "extern func tool.run(name)\nsaga main {\n  let r = call tool.run(\"ver\")\n  log \"said: \\(r.out)\"\n  log \"dos\\r\"\n}\n",
            "cr.mocks.jsonl": #"{"call":"tool.run","args":["ver"],"result":{"out":"10.0\r\nOK\r\n"}}"# + "\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let saga = folder.appendingPathComponent("cr.saga").path
            let update = await runSagarun(["test", "--update", saga])
            #expect(update.code == 0, "\(update.out)")
            let run = await runSagarun(["test", saga])
            #expect(run.code == 0, "\(run.out)")
            #expect(run.out.contains("1 passed, 0 failed"), "\(run.out)")
        }
    }

    /// A malformed input line stops the run with exit 65 part-way: the test fails, golden or
    /// not, and `--update` writes no golden from what ran before it.
    @Test func aMalformedInputLineFailsTheTest() async throws {
        let files = [
            "take.saga": "saga main { loop { let a = take \"go\"; log a.n } }\n",
            "take.input.jsonl": "{\"type\":\"go\",\"n\":1}\n{\"name\":\"x\"}\n",
            "take.golden": "1\nstate {}\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let saga = folder.appendingPathComponent("take.saga").path
            let run = await runSagarun(["test", saga])
            #expect(run.code == 1, "\(run.out)")
            #expect(run.out.contains("FAIL") && run.out.contains("it did not run"), "\(run.out)")
            let update = await runSagarun(["test", "--update", saga])
            #expect(update.code == 1, "\(update.out)")
            let golden = try? String(contentsOfFile: folder.appendingPathComponent("take.golden").path, encoding: .utf8)
            #expect(golden == "1\nstate {}\n")
        }
    }

    /// A mocks file that starts with a byte-order mark is read as if it had none, as an input
    /// file is.
    @Test func aByteOrderMarkBeforeTheMocksIsIgnored() async throws {
        let files = [
            "bom.saga": "extern func api.get(x)\nsaga main { let r = call api.get(1); log r }\n",
            "bom.mocks.jsonl": "\u{FEFF}" + #"{"call":"api.get","args":[1],"result":7}"# + "\n",
            "bom.golden": "7\nstate {}\n",
        ]
        await ExitCodeTests.withFiles(files) { folder in
            let run = await runSagarun(["test", folder.appendingPathComponent("bom.saga").path])
            #expect(run.code == 0, "\(run.out)")
        }
    }

    /// An empty `--filter` (a script's unset variable) keeps every test.
    @Test func anEmptyFilterKeepsEveryTest() async throws {
        await ExitCodeTests.withFiles(["one.saga": "saga main { log 1 }\n", "one.golden": "1\nstate {}\n"]) { folder in
            let run = await runSagarun(["test", "--filter", "", folder.path])
            #expect(run.code == 0, "\(run.out)")
            #expect(run.out.contains("1 passed, 0 failed"), "\(run.out)")
        }
    }

    /// A golden path that is a folder fails its test with that said, with `--update` too,
    /// which cannot write there.
    @Test(arguments: [false, true])
    func aGoldenPathThatIsAFolderFailsTheTest(update: Bool) async throws {
        await ExitCodeTests.withFiles(["one.saga": "saga main { log 1 }\n"]) { folder in
            try? FileManager.default.createDirectory(
                at: folder.appendingPathComponent("one.golden"), withIntermediateDirectories: false)
            let saga = folder.appendingPathComponent("one.saga").path
            let run = await runSagarun(["test"] + (update ? ["--update"] : []) + [saga])
            #expect(run.code == 1, "\(run.out)")
            #expect(run.out.contains("one.golden is a folder, where its golden file goes"), "\(run.out)")
        }
    }

    /// A program named twice, by two spellings of its path or by itself and its folder, is one
    /// test, run once.
    @Test func aTestNamedTwiceRunsOnce() async throws {
        await ExitCodeTests.withFiles(["one.saga": "saga main { log 1 }\n", "one.golden": "1\nstate {}\n"]) { folder in
            let run = await runSagarun([
                "test", folder.appendingPathComponent("one.saga").path, folder.path + "/./one.saga", folder.path,
            ])
            #expect(run.code == 0, "\(run.out)")
            #expect(run.out.contains("1 passed, 0 failed"), "\(run.out)")
        }
    }
}
