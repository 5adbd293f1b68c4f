import Foundation
import SagaCommandLine
import SagaCore
import Testing

/// Every kind of bad input gets a clear message and the exit code “Exit codes” in
/// Sagas/README.md gives it.
@Suite struct ExitCodeTests {
    /// A scratch folder with the given files, removed afterwards.
    static func withFiles(_ files: [String: String], _ body: (URL) async throws -> Void) async rethrows {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sagarun-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files {
            try? text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try await body(dir)
    }

    @Test func aGoodRunExitsZeroAndPrintsTheTranscript() async {
        await Self.withFiles(["ok.saga": "saga main { log \"hi\" }"]) { dir in
            let r = await runSagarun([
                dir.appendingPathComponent("ok.saga").path, "--virtual-time", "--print-state", "--memory",
            ])
            #expect(r.code == 0)
            #expect(r.out == "hi\nstate {}\n")
        }
    }

    @Test func aFailedRootSagaExitsOneAndStillPrintsTheState() async {
        await Self.withFiles(["bad.saga": "state { n: 1 }\nsaga main { throw \"no\" }"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("bad.saga").path, "--virtual-time", "--print-state", "--memory",
            ])
            #expect(r.code == 1)
            #expect(r.out == "state {\"n\":1}\n")
            #expect(r.err.hasPrefix("error: saga main failed: no"))
        }
    }

    @Test func badUsageExits64WithTheUsage() async {
        let r = await runSagarun(["run", "x.saga", "--no-such-flag"])
        #expect(r.code == 64)
        #expect(r.err.contains("unknown option '--no-such-flag'"))
        #expect(r.err.contains("Usage: sagarun run"))
        #expect(await runSagarun([]).code == 64)
        #expect(await runSagarun(["run"]).code == 64)
        #expect(await runSagarun(["frobnicate"]).code == 64)
        #expect(await runSagarun(["run", "a.saga", "--input"]).code == 64)
        #expect(await runSagarun(["run", "a.saga", "--memory", "--store", "d"]).code == 64)
        // The beginning of one option's name names it.
        let short = await runSagarun(["run", "x.saga", "--virtual"])
        #expect(short.err.contains("unknown option '--virtual'; did you mean '--virtual-time'?"))
        // A misspelt command is matched with the command it is closest to.
        let command = await runSagarun(["runn", "x.saga"])
        #expect(command.code == 64)
        #expect(command.err.contains("unknown command 'runn'; commands are run, "), "\(command.err)")
        #expect(command.err.contains("; did you mean 'run'?"), "\(command.err)")
        // Two letters swapped are one edit: `tset` is `test`, not `ast`.
        let swapped = await runSagarun(["tset"])
        #expect(swapped.err.contains("; did you mean 'test'?"), "\(swapped.err)")
    }

    @Test func aMisspelledFlagGetsASuggestion() async {
        let r = await runSagarun(["run", "x.saga", "--virtual-tme"])
        #expect(r.err.contains("did you mean '--virtual-time'?"))
        let swapped = await runSagarun(["run", "x.saga", "--inptu", "a"])
        #expect(swapped.err.contains("did you mean '--input'?"), "\(swapped.err)")
        // A name that shares few letters with any option gets no guess.
        let unlike = await runSagarun(["run", "x.saga", "--bogus"])
        #expect(unlike.code == 64)
        #expect(!unlike.err.contains("did you mean"), "\(unlike.err)")
    }

    @Test func invalidSourceExits65WithEveryDiagnostic() async {
        await Self.withFiles(["bad.saga": "saga a {\n  log x\n  log y\n}\n"]) { dir in
            let r = await runSagarun(["check", dir.appendingPathComponent("bad.saga").path])
            #expect(r.code == 65)
            #expect(r.err.contains("bad.saga:2:7: error: unknown variable 'x'"))
            #expect(r.err.contains("bad.saga:3:7: error: unknown variable 'y'"))
            #expect(r.err.contains("  log x\n      ^"))
        }
    }

    @Test func malformedInputExits65() async {
        await Self.withFiles(["ok.saga": "saga main { take \"x\" }", "in.jsonl": "[1, 2]\n"]) { dir in
            let r = await runSagarun([
                dir.appendingPathComponent("ok.saga").path, "--virtual-time", "--memory", "--input",
                dir.appendingPathComponent("in.jsonl").path,
            ])
            #expect(r.code == 65)
            #expect(r.err.contains("in.jsonl:1: error: expected a JSON record, got list"), "\(r.err)")
        }
    }

    /// In real time, the timed lines before a malformed one are dispatched at their moments
    /// (as on the virtual clock), not all at once when the malformed line is read; then the run
    /// stops with 65.
    @Test func timedLinesBeforeAMalformedOneKeepTheirMoments() async {
        let input = """
            {"type":"ping","n":0}
            {"at":30,"action":{"type":"ping","n":1}}
            {"at":60,"action":{"type":"ping","n":2}}
            garbage

            """
        let saga = #"saga main { every "ping" as p { log "\(p.n) \(now())" } }"#
        await Self.withFiles(["timed.saga": saga, "in.jsonl": input]) { dir in
            let r = await runSagarun([
                dir.appendingPathComponent("timed.saga").path, "--memory", "--input",
                dir.appendingPathComponent("in.jsonl").path,
            ])
            #expect(r.code == 65)
            #expect(r.err.contains("in.jsonl:4:1: error: unexpected 'g'"), "\(r.err)")
            let moments = r.out.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
            #expect(moments.map(\.first) == [0, 1, 2], "\(r.out)")
            #expect(moments.count == 3 && moments[1][1] >= 30 && moments[2][1] >= 60, "\(r.out)")
        }
    }

    @Test func unreadableFilesExit66() async {
        #expect(await runSagarun(["run", "/no/such/file.saga"]).code == 66)
        #expect(await runSagarun(["check", "/no/such/file.saga"]).code == 66)
        await Self.withFiles(["ok.saga": "saga main { }"]) { dir in
            let r = await runSagarun([
                dir.appendingPathComponent("ok.saga").path, "--memory", "--input", "/no/such/input.jsonl",
            ])
            #expect(r.code == 66)
            #expect(r.err.contains("cannot read input file"))
        }
    }

    @Test func helpAndVersionGoToStandardOutput() async {
        let help = await runSagarun(["--help"])
        #expect(help.code == 0)
        #expect(help.out.contains("SUBCOMMANDS:"))
        let runHelp = await runSagarun(["run", "--help"])
        #expect(runHelp.out.contains("--virtual-time"))
        #expect(await runSagarun(["help", "test"]).out.contains("--update"))
        #expect(await runSagarun(["--version"]).out.hasPrefix("sagarun "))
    }

    @Test func astPrintsTheProgramAsJSON() async {
        await Self.withFiles(["a.saga": "saga main { take \"go\" }"]) { dir in
            let r = await runSagarun(["ast", dir.appendingPathComponent("a.saga").path])
            #expect(r.code == 0)
            #expect(r.out.contains("\"kind\":\"take\""))
            #expect(r.out.contains("\"name\":\"main\""))
        }
    }

    @Test func testCommandReportsADiffAndFails() async {
        await Self.withFiles(["t.saga": "saga main { log \"actual\" }", "t.golden": "expected\nstate {}\n"]) { dir in
            let r = await runSagarun(["test", dir.path])
            #expect(r.code == 1)
            #expect(r.out.contains("-expected\n+actual\n"))
            #expect(r.out.contains("0 passed, 1 failed"))
            let update = await runSagarun(["test", dir.path, "--update"])
            #expect(update.code == 0)
            #expect(await runSagarun(["test", dir.path]).out.contains("1 passed, 0 failed"))
        }
    }

    @Test func aPassingTestOfAFailedSagaSaysItFailed() async {
        let files = ["t.saga": "saga main { log \"before\"; throw \"broken\" }", "t.golden": "before\nstate {}\n"]
        await Self.withFiles(files) { dir in
            let r = await runSagarun(["test", dir.path])
            #expect(r.code == 0)
            #expect(
                r.out.contains("  note: the run exited with 1, not in the golden: error: saga main failed: broken\n"))
            #expect(r.out.contains("1 passed, 0 failed"))
        }
    }
}

/// Hostile source text gets a diagnostic, never a crash.
@Suite struct HostileSourceTests {
    @Test func aVeryLongOperatorChainIsTooDeepNotAStackOverflow() async {
        let chain = Array(repeating: "1", count: 5000).joined(separator: " + ")
        await ExitCodeTests.withFiles(["long.saga": "saga main {\n  log \(chain)\n}\n"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(["check", dir.appendingPathComponent("long.saga").path], io: io)
            #expect(code == 65)
            #expect(io.stderr.contains("nesting too deep"))
        }
    }
}

/// `sagarun check --format json`, for editors and CI.
@Suite struct CheckJSONTests {
    @Test func diagnosticsAsOneJSONDocument() async {
        await ExitCodeTests.withFiles(["bad.saga": "saga a {\n  log x\n}\n"]) { dir in
            let path = dir.appendingPathComponent("bad.saga").path
            let io = CapturedIO()
            let code = await SagaRunTool.main(["check", path, "--format", "json"], io: io)
            #expect(code == 65)
            #expect(
                io.stdout
                    == #"{"diagnostics":[{"column":7,"file":"\#(path)","line":2,"message":"unknown variable 'x'","severity":"error"}]}"#
                    + "\n")
            #expect(io.stderr.isEmpty)
            #expect(await SagaRunTool.main(["check", path, "--format", "xml"], io: CapturedIO()) == 64)
        }
    }
}

/// `sagarun graph`.
@Suite struct GraphCommandTests {
    @Test func graphPrintsMermaidByDefaultAndDotOnRequest() async {
        await ExitCodeTests.withFiles(["g.saga": "saga main { take \"go\"; put \"went\" }"]) { dir in
            let path = dir.appendingPathComponent("g.saga").path
            let io = CapturedIO()
            #expect(await SagaRunTool.main(["graph", path], io: io) == 0)
            #expect(io.stdout.hasPrefix("flowchart LR\n"))
            #expect(io.stdout.contains("saga_main -->|\"put\"|"))
            let dot = CapturedIO()
            #expect(await SagaRunTool.main(["graph", path, "--format", "dot"], io: dot) == 0)
            #expect(dot.stdout.hasPrefix("digraph"))
            #expect(await SagaRunTool.main(["graph", path, "--format", "png"], io: CapturedIO()) == 64)
        }
    }
}

/// `sagarun fmt`: in place, or `--check` to only report.
@Suite struct FormatCommandTests {
    @Test func fmtRewritesInPlaceAndCheckReports() async throws {
        try await ExitCodeTests.withFiles([
            "a.saga": "saga main {\n    log   1+2 // sum\n}\n", "ok.saga": "saga main {\n  log 1\n}\n",
        ]) { dir in
            let a = dir.appendingPathComponent("a.saga").path
            let ok = dir.appendingPathComponent("ok.saga").path
            let check = CapturedIO()
            #expect(await SagaRunTool.main(["fmt", "--check", a, ok], io: check) == 1)
            #expect(check.stdout == a + "\n")
            let unchanged = try String(contentsOfFile: a, encoding: .utf8)
            #expect(unchanged == "saga main {\n    log   1+2 // sum\n}\n")
            #expect(await SagaRunTool.main(["fmt", a, ok], io: CapturedIO()) == 0)
            let formatted = try String(contentsOfFile: a, encoding: .utf8)
            #expect(formatted == "saga main {\n  log 1 + 2 // sum\n}\n")
            #expect(await SagaRunTool.main(["fmt", "--check", a, ok], io: CapturedIO()) == 0)
        }
    }

    @Test func aFileThatDoesNotParseIsLeftAlone() async throws {
        try await ExitCodeTests.withFiles(["bad.saga": "saga main {\n  log (\n"]) { dir in
            let bad = dir.appendingPathComponent("bad.saga").path
            let io = CapturedIO()
            #expect(await SagaRunTool.main(["fmt", bad], io: io) == 65)
            #expect(io.stderr.contains("bad.saga:"))
            let left = try String(contentsOfFile: bad, encoding: .utf8)
            #expect(left == "saga main {\n  log (\n")
        }
    }
}

/// Hostile input lines: memory stays bounded and the run ends with a clear error.
@Suite struct HostileInputTests {
    @Test func anEndlessLineIsReportedNotReadForever() async {
        await ExitCodeTests.withFiles(["ok.saga": "saga main { every \"x\" as a { log a.n } }"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [dir.appendingPathComponent("ok.saga").path, "--memory", "--virtual-time", "--input", "/dev/zero"],
                io: io)
            #expect(code == 65)
            #expect(io.stderr.contains("/dev/zero:1: error: the line is longer than 16 MiB"), "\(io.stderr)")
        }
    }

    @Test func theLimitFlagsReachTheInterpreterAndRefuseNonsense() async {
        let source = "saga main { var s = \"ab\"; loop { s = s + s } }"
        await ExitCodeTests.withFiles(["grow.saga": source]) { dir in
            let path = dir.appendingPathComponent("grow.saga").path
            let io = CapturedIO()
            let code = await SagaRunTool.main([path, "--memory", "--virtual-time", "--max-length", "100"], io: io)
            #expect(code == 1)
            #expect(io.stderr.contains("longer than 100 (elements or UTF-8 bytes); raise the limit with --max-length"))
            for flag in ["--max-tasks", "--max-buffer", "--max-length", "--yield-after", "--max-run-steps"] {
                let bad = CapturedIO()
                #expect(await SagaRunTool.main([path, "--memory", flag, "0"], io: bad) == 64)
                #expect(bad.stderr.contains("\(flag) needs a positive whole number, not '0'"))
            }
            let huge = CapturedIO()
            #expect(
                await SagaRunTool.main([path, "--memory", "--max-steps", "99999999999999999999999"], io: huge) == 64)
            #expect(huge.stderr.contains("--max-steps is too large: at most \(Int.max), not '99999999999999999999999'"))
        }
    }

    @Test func anEndlessTimerLoopEndsAtTheRunsStepBudget() async {
        await ExitCodeTests.withFiles(["tick.saga": "saga main { var n = 0; loop { delay 1s; n = n + 1 } }"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    dir.appendingPathComponent("tick.saga").path, "--memory", "--virtual-time", "--max-run-steps",
                    "1000",
                ],
                io: io)
            #expect(code == 1)
            #expect(
                io.stderr.contains(
                    "error: the run took more than 1000 steps; it was stopped; raise the limit with --max-run-steps"))
        }
    }

    @Test func invalidUTF8InALineIsAMalformedLineNotAGuess() async {
        await ExitCodeTests.withFiles(["ok.saga": "saga main { every \"x\" as a { log a.n } }"]) { dir in
            // A valid line, then a string holding a lone continuation byte (0x80).
            var bytes = Array("{\"type\":\"x\",\"n\":1}\n{\"type\":\"x\",\"n\":\"".utf8)
            bytes += [0x80] + Array("\"}\n".utf8)
            let input = dir.appendingPathComponent("in.jsonl")
            _ = FileManager.default.createFile(atPath: input.path, contents: Data(bytes))
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [dir.appendingPathComponent("ok.saga").path, "--memory", "--virtual-time", "--input", input.path],
                io: io)
            #expect(code == 65)
            #expect(io.stdout == "1\n")
            #expect(io.stderr.contains("in.jsonl:2:") && io.stderr.contains("error: invalid UTF-8"), "\(io.stderr)")
        }
    }

    @Test func aLineThatIsNotUTF8IsRefusedNotPatched() async throws {
        try await ExitCodeTests.withFiles(["ok.saga": "saga main { every \"*\" as a { log a } }"]) { dir in
            let input = dir.appendingPathComponent("in.jsonl")
            try Data([0x7B, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D, 0x0A]).write(
                to: input)
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [dir.appendingPathComponent("ok.saga").path, "--memory", "--virtual-time", "--input", input.path],
                io: io)
            #expect(code == 65)
            #expect(io.stdout.isEmpty)
            // Read as bytes by the strict JSON reader, which names the column.
            #expect(io.stderr.contains("in.jsonl:1:") && io.stderr.contains("error: invalid UTF-8"), "\(io.stderr)")
        }
    }

    @Test func importingAnEndlessFileFailsWithoutTakingAllMemory() async {
        await ExitCodeTests.withFiles(["zero.saga": "import \"/dev/zero\"\nsaga main { log 1 }\n"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [dir.appendingPathComponent("zero.saga").path, "--memory", "--virtual-time"], io: io)
            #expect(code == 66)
            #expect(io.stderr.contains("cannot read imported file '/dev/zero': it is larger than 64 MiB"))
        }
    }

    @Test func linesEndingInCRLFAndBlankLinesAreFine() async {
        let input = "{\"type\":\"x\",\"n\":1}\r\n\r\n\n{\"type\":\"x\",\"n\":2}"
        await ExitCodeTests.withFiles(["ok.saga": "saga main { every \"x\" as a { log a.n } }", "in.jsonl": input]) {
            dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    dir.appendingPathComponent("ok.saga").path, "--memory", "--virtual-time", "--input",
                    dir.appendingPathComponent("in.jsonl").path,
                ], io: io)
            #expect(code == 0)
            #expect(io.stdout == "1\n2\n")
        }
    }
}

/// `sagarun check --input`: a take that no put and no input line can match is a warning.
@Suite struct UnmatchedTakeWarningTests {
    @Test func takesThatNothingProducesAreWarnedAbout() async {
        let source = """
            saga main {
              every "request" as r { put "added" { by: r.by } }
              take "reset"
              take "persistence/saved"
            }
            saga other { take "added"; take "user/*" }
            """
        await ExitCodeTests.withFiles(["u.saga": source, "in.jsonl": "{\"type\":\"request\",\"by\":1}\n"]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    "check", dir.appendingPathComponent("u.saga").path, "--input",
                    dir.appendingPathComponent("in.jsonl").path,
                ],
                io: io)
            #expect(code == 0)
            let warnings = io.stderr.split(separator: "\n").filter { $0.contains("warning:") }.map {
                String($0.split(separator: " warning: ", maxSplits: 1).last ?? "")
            }
            #expect(
                warnings == [
                    "saga main takes 'reset', but no put and no input line produces an action of that type",
                    "saga other takes 'user/*', but no put and no input line produces an action of that type",
                ])
            // Each at its `take`'s pattern.
            #expect(io.stderr.contains("u.saga:3:8: warning: saga main takes 'reset'"), "\(io.stderr)")
            #expect(io.stderr.contains("u.saga:6:33: warning: saga other takes 'user/*'"), "\(io.stderr)")
            let quiet = CapturedIO()
            #expect(await SagaRunTool.main(["check", dir.appendingPathComponent("u.saga").path], io: quiet) == 0)
            #expect(!quiet.stderr.contains("warning:"))
        }
    }
}

extension UnmatchedTakeWarningTests {
    /// A reducer of a type nothing produces is warned of, and so is each element of a list
    /// pattern, each at its own place.
    @Test func reducersAndListElementsThatNothingProducesAreWarnedAbout() async {
        let source = """
            state { n: 0 }
            reduce "LOGIN_SUCESS" as a { state.n = state.n + 1 }
            reduce ["LOGIN_SUCCESS", "LOGOUT"] as a { state.n = 0 }
            saga main {
              put "LOGIN_SUCCESS"
              take ["LOGUT", "LOGIN_SUCCESS"]
            }
            """
        let warnings = await Self.warnings(of: source, named: "r.saga")
        #expect(
            warnings == [
                "r.saga:2:8: warning: reduce 'LOGIN_SUCESS' never runs: no put and no input line produces an action of that type; 'LOGIN_SUCCESS' is produced: a typo?",
                "r.saga:3:26: warning: reduce 'LOGOUT' never runs: no put and no input line produces an action of that type",
                "r.saga:6:9: warning: saga main takes 'LOGUT', but no put and no input line produces an action of that type",
            ])
    }

    /// The warnings come in the order of the lines they point at, not of the types' names.
    @Test func warningsComeInLineOrder() async {
        let warnings = await Self.warnings(of: "saga one { take \"z\" }\nsaga two { take \"a\" }\n", named: "o.saga")
        #expect(warnings.map { $0.split(separator: " ").first ?? "" } == ["o.saga:1:17:", "o.saga:2:17:"])
    }

    /// The warnings of `sagarun check --input` over an empty input, each from the file's name on.
    static func warnings(of source: String, named name: String) async -> [String] {
        var warnings: [String] = []
        await ExitCodeTests.withFiles([name: source, "in.jsonl": ""]) { dir in
            let io = CapturedIO()
            _ = await SagaRunTool.main(
                [
                    "check", dir.appendingPathComponent(name).path, "--input",
                    dir.appendingPathComponent("in.jsonl").path,
                ],
                io: io)
            warnings = io.stderr.split(separator: "\n").filter { $0.contains("warning:") }.map {
                String($0.split(separator: "/").last ?? "")
            }
        }
        return warnings
    }
}

/// `sagarun check --input` reads the input as `run` does.
@Suite struct CheckInputTests {
    @Test func aTypeOneLetterOffIsSuggestedAndAMalformedLineFails() async {
        let source = "saga main {\n  take \"user/login\"\n}\n"
        await ExitCodeTests.withFiles([
            "t.saga": source, "typo.jsonl": "{\"type\":\"user/logn\"}\n",
            "bad.jsonl": "{\"type\":\"user/login\"}\n{\"type\":\"b\"\n",
        ]) { dir in
            let typo = CapturedIO()
            let path = dir.appendingPathComponent("t.saga").path
            let typoCode = await SagaRunTool.main(
                ["check", path, "--input", dir.appendingPathComponent("typo.jsonl").path], io: typo)
            #expect(typoCode == 0)
            #expect(typo.stderr.contains("t.saga:2:8: warning: saga main takes 'user/login'"), "\(typo.stderr)")
            #expect(typo.stderr.contains("; 'user/logn' is produced: a typo?"), "\(typo.stderr)")

            let bad = CapturedIO()
            let badCode = await SagaRunTool.main(
                ["check", path, "--input", dir.appendingPathComponent("bad.jsonl").path], io: bad)
            #expect(badCode == 65)
            #expect(bad.stderr.contains("bad.jsonl:2:12: error: "), "\(bad.stderr)")
        }
    }

    /// Every bad line is reported, not only the first, up to 20.
    @Test func everyMalformedLineIsReported() async {
        let many = String(repeating: "{\"type\":\n", count: 25)
        await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  take \"a\"\n}\n",
            "bad.jsonl": "{\"type\":\"a\"}\n{\"type\":\"b\"\n{\"type\":\"a\"}\n[1]\n",
            "many.jsonl": many,
        ]) { dir in
            let path = dir.appendingPathComponent("t.saga").path
            let bad = CapturedIO()
            let code = await SagaRunTool.main(
                ["check", path, "--input", dir.appendingPathComponent("bad.jsonl").path], io: bad)
            #expect(code == 65)
            #expect(bad.stderr.contains("bad.jsonl:2:12: error: "), "\(bad.stderr)")
            #expect(bad.stderr.contains("bad.jsonl:4:"), "\(bad.stderr)")
            #expect(!bad.stderr.contains("read no further"), "\(bad.stderr)")

            let manyIO = CapturedIO()
            _ = await SagaRunTool.main(
                ["check", path, "--input", dir.appendingPathComponent("many.jsonl").path], io: manyIO)
            let reported = manyIO.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
            #expect(reported.count == 20, "\(manyIO.stderr)")
            #expect(manyIO.stderr.contains("note: the input was read no further after 20 bad lines"))
        }
    }

    /// `{"at": 10, "type": "a"}` is an action dispatched at once with a field `at`: the check
    /// says so, for a line meant to be timed.
    @Test func anActionLineWithAnAtIsNoted() async {
        await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  take \"a\"\n}\n",
            "at.jsonl": "{\"type\":\"a\"}\n{\"at\":10,\"type\":\"a\"}\n{\"at\":5,\"action\":{\"type\":\"a\"}}\n",
        ]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    "check", dir.appendingPathComponent("t.saga").path, "--input",
                    dir.appendingPathComponent("at.jsonl").path,
                ],
                io: io)
            #expect(code == 0)
            #expect(
                io.stderr.contains(
                    "at.jsonl:2: warning: 'at' beside 'type' is a field of an action dispatched at once; "
                        + "a timed line is {\"at\": MS, \"action\": {\"type\": …}}"), "\(io.stderr)")
            #expect(!io.stderr.contains("at.jsonl:1:") && !io.stderr.contains("at.jsonl:3:"), "\(io.stderr)")
        }
    }

    /// An empty `--store` (or `--input`, `--mocks`, `--record`, `--trace`) names no folder or
    /// file: a usage error, not a file that cannot be opened.
    @Test func anEmptyStorePathIsAUsageError() async {
        await ExitCodeTests.withFiles(["t.saga": "saga main { log 1 }\n"]) { dir in
            let r = await runSagarun(["run", dir.appendingPathComponent("t.saga").path, "--store", ""])
            #expect(r.code == 64)
            #expect(r.err.contains("--store needs a folder; an empty path names none"), "\(r.err)")
            for option in ["--input", "--mocks", "--record", "--trace"] {
                let r = await runSagarun(["run", dir.appendingPathComponent("t.saga").path, option, ""])
                #expect(r.code == 64, "\(option)")
                #expect(r.err.contains("\(option) needs a file; an empty path names none"), "\(r.err)")
            }
        }
    }

    /// `check --input` warns of a timed line earlier than a timed line before it: it is
    /// dispatched when read, at the later moment.
    @Test func aTimedLineEarlierThanTheOneBeforeIsNoted() async {
        await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  take \"a\"\n}\n",
            "at.jsonl":
                "{\"at\":100,\"action\":{\"type\":\"a\"}}\n{\"type\":\"a\"}\n{\"at\":50,\"action\":{\"type\":\"a\"}}\n",
        ]) { dir in
            let io = CapturedIO()
            let input = dir.appendingPathComponent("at.jsonl").path
            let code = await SagaRunTool.main(
                ["check", dir.appendingPathComponent("t.saga").path, "--input", input], io: io)
            #expect(code == 0)
            #expect(
                io.stderr
                    == "\(input):3: warning: 'at' 50 is earlier than 100, line 1's: lines are read in order, "
                    + "so it is dispatched no earlier than 100\n", "\(io.stderr)")
        }
    }

    /// A malformed input line does not hide the program's own errors, nor the warnings of the
    /// lines before it; an input that cannot be read is a diagnostic of the JSON document.
    @Test func checkWithABadInputStillChecksTheProgram() async throws {
        try await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  log nmae\n}\n",
            "bad.jsonl": "{\"at\":10,\"type\":\"a\"}\nnot json\n",
        ]) { dir in
            let saga = dir.appendingPathComponent("t.saga").path
            let bad = dir.appendingPathComponent("bad.jsonl").path
            let r = await runSagarun(["check", saga, "--input", bad])
            #expect(r.code == 65)
            #expect(r.err.contains("\(bad):2:1: error:"), "\(r.err)")
            #expect(r.err.contains("\(bad):1: warning: 'at' beside 'type'"), "\(r.err)")
            #expect(r.err.contains("unknown variable 'nmae'"), "\(r.err)")
            let missing = await runSagarun([
                "check", saga, "--input", dir.appendingPathComponent("nope").path, "--format", "json",
            ])
            #expect(missing.code == 66)
            #expect(missing.err.isEmpty, "\(missing.err)")
            let document = try JSONReader.parse(missing.out)
            guard case .list(let diagnostics) = document["diagnostics"], diagnostics.count == 1 else {
                Issue.record("expected one diagnostic: \(missing.out)")
                return
            }
            #expect(diagnostics[0]["severity"] == "error")
        }
    }

    /// `check --format json --input` puts the input's errors and warnings in its document, as
    /// the program's are, and nothing on standard error.
    @Test func checkAsJSONReportsTheInputsDiagnosticsInTheDocument() async throws {
        try await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  take \"a\"\n}\n",
            "bad.jsonl": "{\"type\":\"a\"}\n{\"type\":\"a\",}\n",
            "at.jsonl": "{\"at\":10,\"type\":\"a\"}\n",
        ]) { dir in
            let saga = dir.appendingPathComponent("t.saga").path
            let bad = dir.appendingPathComponent("bad.jsonl").path
            let io = CapturedIO()
            #expect(await SagaRunTool.main(["check", saga, "--input", bad, "--format", "json"], io: io) == 65)
            #expect(io.stderr.isEmpty, "\(io.stderr)")
            guard case .list(let errors) = try JSONReader.parse(io.stdout)["diagnostics"], errors.count == 1 else {
                Issue.record("expected one diagnostic: \(io.stdout)")
                return
            }
            #expect(errors[0]["file"] == .string(bad) && errors[0]["line"] == 2 && errors[0]["severity"] == "error")

            let at = dir.appendingPathComponent("at.jsonl").path
            let io2 = CapturedIO()
            #expect(await SagaRunTool.main(["check", saga, "--input", at, "--format", "json"], io: io2) == 0)
            #expect(io2.stderr.isEmpty, "\(io2.stderr)")
            guard case .list(let warnings) = try JSONReader.parse(io2.stdout)["diagnostics"], warnings.count == 1 else {
                Issue.record("expected one diagnostic: \(io2.stdout)")
                return
            }
            #expect(warnings[0]["file"] == .string(at) && warnings[0]["line"] == 1)
            #expect(warnings[0]["severity"] == "warning")
        }
    }

    /// A run says so too, after the run (the line is dispatched at once, as written), and a
    /// golden test notes it, pass or fail.
    @Test func anActionLineWithAnAtIsNotedByRunAndTest() async {
        await ExitCodeTests.withFiles([
            "t.saga": "saga main {\n  let a = take \"a\"\n  log a\n}\n",
            "t.input.jsonl": "{\"at\":10,\"type\":\"a\"}\n",
            "t.golden": "action {\"at\":10,\"type\":\"a\"}\n{\"at\":10,\"type\":\"a\"}\nstate {}\n",
        ]) { dir in
            let saga = dir.appendingPathComponent("t.saga").path
            let input = dir.appendingPathComponent("t.input.jsonl").path
            let run = await runSagarun(["run", saga, "--input", input, "--virtual-time"])
            #expect(run.code == 0)
            #expect(run.out == "{\"at\":10,\"type\":\"a\"}\n", "\(run.out)")
            #expect(
                run.err.contains("\(input):1: warning: 'at' beside 'type' is a field of an action"),
                "\(run.err)")
            let test = await runSagarun(["test", saga])
            #expect(test.code == 0, "\(test.out)")
            #expect(test.out.contains("\(input):1: note: 'at' beside 'type'"), "\(test.out)")
            #expect(test.out.contains("1 passed, 0 failed"), "\(test.out)")
        }
    }
}

/// `--max-steps`.
@Suite struct MaxStepsFlagTests {
    @Test func theFlagSetsTheLimitAndRejectsNonsense() async {
        await ExitCodeTests.withFiles(["spin.saga": "saga main { loop { } }"]) { dir in
            let path = dir.appendingPathComponent("spin.saga").path
            let io = CapturedIO()
            #expect(await SagaRunTool.main([path, "--memory", "--virtual-time", "--max-steps", "1000"], io: io) == 1)
            #expect(io.stderr.contains("the task ran 1000 steps without waiting"))
            #expect(await SagaRunTool.main([path, "--memory", "--max-steps", "lots"], io: CapturedIO()) == 64)
        }
    }
}

/// `--max-call-depth`: an endless recursion through `call` fails cleanly, and can be caught.
@Suite struct MaxCallDepthTests {
    @Test func endlessRecursionFailsAtTheLimit() async {
        let source = """
            func down(n) { let r = call down(n + 1); return r }
            saga main {
              try { call down(0) } catch e { log e.kind }
            }
            """
        await ExitCodeTests.withFiles(["deep.saga": source]) { dir in
            let io = CapturedIO()
            let code = await SagaRunTool.main(
                [
                    dir.appendingPathComponent("deep.saga").path, "--memory", "--virtual-time", "--max-call-depth",
                    "500",
                ], io: io)
            #expect(code == 0)
            #expect(io.stdout == "RangeError\n")
        }
    }
}
