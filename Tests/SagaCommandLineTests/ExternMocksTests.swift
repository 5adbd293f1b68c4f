import Foundation
import SagaCommandLine
import Testing

/// An app's `.saga` file declares the host functions it expects with `extern func`; `sagarun`
/// checks, formats, graphs and runs it, and a golden test gives those functions' results in a
/// mocks file, call by call.
@Suite struct ExternMocksTests {
    static let app = """
        extern func api.lookupSong(id)

        saga songs {
          every "song/lookup" as a {
            let song = call api.lookupSong(a.id)
            put "song/found" { song: song }
          }
        }

        """

    func withFiles(_ files: [String: String], _ body: (URL) async throws -> Void) async rethrows {
        try await ExitCodeTests.withFiles(files, body)
    }

    /// After an unexpected call the run goes another way: the lines of a function it then did
    /// not call are one problem, not one each.
    @Test func theUnusedLinesOfAFunctionAreOneProblem() async {
        let saga = "extern func api.get(id)\nsaga main { for i in range(4) { let v = call api.get(i); log v } }\n"
        let mocks =
            [0, 9, 2, 3].map { #"{"call":"api.get","args":[\#($0)],"result":"r\#($0)"}"# }
            .joined(separator: "\n") + "\n"
        await withFiles(["mk.saga": saga, "mk.jsonl": mocks]) { dir in
            let run = await runSagarun([
                "run", dir.appendingPathComponent("mk.saga").path, "--virtual-time", "--mocks",
                dir.appendingPathComponent("mk.jsonl").path,
            ])
            #expect(run.code == 1)
            let problems = run.err.split(separator: "\n").filter { $0.hasPrefix("error: mocks:") }
            #expect(
                problems == [
                    "error: mocks: lines 3 and 4 of \(dir.appendingPathComponent("mk.jsonl").path) (api.get) were not used"
                ],
                "\(run.err)")
        }
    }

    @Test func checkFormatAndGraphAcceptExternFunctions() async {
        await withFiles(["app.saga": Self.app]) { dir in
            let path = dir.appendingPathComponent("app.saga").path
            #expect(await runSagarun(["check", path]).code == 0)
            #expect(await runSagarun(["fmt", "--check", path]).code == 0)
            let graph = await runSagarun(["graph", path])
            #expect(graph.code == 0)
            #expect(graph.out.contains("host api.lookupSong"))
        }
    }

    @Test func aCallWithTheWrongNumberOfArgumentsIsAnError() async {
        let source = Self.app.replacingOccurrences(of: "api.lookupSong(a.id)", with: "api.lookupSong(a.id, 2)")
        await withFiles(["app.saga": source]) { dir in
            let r = await runSagarun(["check", dir.appendingPathComponent("app.saga").path])
            #expect(r.code == 65)
            #expect(r.err.contains("'api.lookupSong' takes 1 argument but 2 were given"))
        }
    }

    @Test func anExternDeclaredTwiceOrAlsoAsAFunctionIsAnError() async {
        let twice = "extern func a.b(x)\nextern func a.b(y)\nsaga main { log 1 }"
        let both = "extern func f(x)\nfunc f(x) { return x }\nsaga main { log 1 }"
        await withFiles(["twice.saga": twice, "both.saga": both]) { dir in
            let r1 = await runSagarun(["check", dir.appendingPathComponent("twice.saga").path])
            #expect(r1.err.contains("invalid redeclaration of extern 'a.b'"))
            let r2 = await runSagarun(["check", dir.appendingPathComponent("both.saga").path])
            #expect(r2.err.contains("'f' is declared both as a function and as extern"))
        }
    }

    @Test func runWithoutMocksSaysWhatWouldProvideTheFunction() async {
        await withFiles(["app.saga": Self.app, "in.jsonl": #"{"type":"song/lookup","id":3}"# + "\n"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("app.saga").path, "--input",
                dir.appendingPathComponent("in.jsonl").path,
                "--virtual-time", "--memory",
            ])
            #expect(r.code == 1)
            #expect(r.err.contains("'api.lookupSong' is declared extern, and nothing provides it here"))
        }
    }

    /// A host call that fails after it has started is reported at its line, as one that fails
    /// at once is, with the frames of the calls that led there.
    @Test func aFailedHostCallIsReportedAtItsLine() async {
        let source =
            "extern func api.get(x)\nfunc f() {\n  log \"in f\"\n  let r = call api.get(1)\n}\nsaga main { call f() }\n"
        let mocks = #"{"call": "api.get", "args": [1], "error": "boom"}"# + "\n"
        await withFiles(["app.saga": source, "app.mocks.jsonl": mocks]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("app.saga").path, "--mocks",
                dir.appendingPathComponent("app.mocks.jsonl").path,
            ])
            #expect(r.code == 1)
            #expect(r.err.contains("app.saga:4:3)\n"), "\(r.err)")
            #expect(r.err.contains("called by saga main at ") && r.err.hasSuffix("app.saga:6:13\n"), "\(r.err)")
        }
    }

    @Test func aGoldenTestTakesItsMocksAndFailsOnAnUnexpectedCallOrAnUnusedLine() async {
        let mocks = #"{"call": "api.lookupSong", "args": [3], "result": {"title": "So What"}}"# + "\n"
        let golden = """
            action {"id":3,"type":"song/lookup"}
            action {"song":{"title":"So What"},"type":"song/found"}
            state {}

            """
        let oneCall = #"{"type":"song/lookup","id":3}"# + "\n"
        await withFiles([
            "app.saga": Self.app, "app.input.jsonl": oneCall, "app.mocks.jsonl": mocks, "app.golden": golden,
        ]) { dir in
            let passing = await runSagarun(["test", dir.path])
            #expect(passing.code == 0)
            #expect(passing.out.contains("1 passed, 0 failed"))

            // A second call finds no line left: the test fails, naming the call.
            try? (oneCall + #"{"type":"song/lookup","id":4}"# + "\n").write(
                to: dir.appendingPathComponent("app.input.jsonl"), atomically: true, encoding: .utf8)
            let unexpected = await runSagarun(["test", dir.path])
            #expect(unexpected.code == 1)
            #expect(unexpected.out.contains("unexpected call api.lookupSong(4)"))
            #expect(unexpected.out.contains("app.saga:"))

            // A line no call takes fails the test too, naming the line.
            try? (mocks + mocks).write(
                to: dir.appendingPathComponent("app.mocks.jsonl"), atomically: true, encoding: .utf8)
            try? oneCall.write(to: dir.appendingPathComponent("app.input.jsonl"), atomically: true, encoding: .utf8)
            let unused = await runSagarun(["test", dir.path])
            #expect(unused.code == 1)
            #expect(unused.out.contains("line 2 of"))
            #expect(unused.out.contains("was not used"))

            // Unless it says it is optional; `optional` is a bool.
            let optional = mocks.replacingOccurrences(of: "}\n", with: #", "optional": true}"# + "\n")
            #expect(optional != mocks)
            try? (mocks + optional).write(
                to: dir.appendingPathComponent("app.mocks.jsonl"), atomically: true, encoding: .utf8)
            let untaken = await runSagarun(["test", dir.path])
            #expect(untaken.code == 0, "\(untaken.out)")
            try? (mocks + optional.replacingOccurrences(of: "true", with: "1")).write(
                to: dir.appendingPathComponent("app.mocks.jsonl"), atomically: true, encoding: .utf8)
            let refused = await runSagarun(["test", dir.path])
            #expect(refused.out.contains("'optional' is true or false"), "\(refused.out)")
        }
    }

    /// A task left waiting on a call that never answers when the run ends is warned of; one
    /// whose call a race's timeout beat is not.
    @Test func aCallThatNeverAnswersWhenTheRunEndsIsWarnedOf() async {
        let program = """
            extern func api.slow()
            saga main {
              let r = race { a: call api.slow(), t: delay 10ms }
              try { call api.slow() } finally { log "unreached" }
            }
            """
        let mocks = #"{"call":"api.slow","pending":true}"# + "\n" + #"{"call":"api.slow","pending":true}"# + "\n"
        await withFiles(["a.saga": program, "a.mocks.jsonl": mocks]) { dir in
            let r = await runSagarun([
                "run", "--virtual-time", "--mocks", dir.appendingPathComponent("a.mocks.jsonl").path,
                dir.appendingPathComponent("a.saga").path,
            ])
            #expect(r.code == 0)
            #expect(r.out == "")
            let warnings = r.err.split(separator: "\n").filter { $0.contains("never answers") }
            #expect(warnings.count == 1, "\(r.err)")
            #expect(warnings.first?.contains("saga main waiting at ") == true, "\(r.err)")
            #expect(warnings.first?.contains("a.saga:4:9") == true, "\(r.err)")
        }
    }

    /// A host's value is held to `--max-length` as one the saga builds is.
    @Test func aHostValuePastTheLongestStringFailsItsCall() async {
        let program = "extern func api.big()\nsaga main {\n  try { call api.big() } catch e { log e.kind }\n}\n"
        let mocks = #"{"call":"api.big","result":""# + String(repeating: "x", count: 100) + #""}"# + "\n"
        await withFiles(["a.saga": program, "a.mocks.jsonl": mocks]) { dir in
            let r = await runSagarun([
                "run", "--virtual-time", "--max-length", "50", "--mocks",
                dir.appendingPathComponent("a.mocks.jsonl").path, dir.appendingPathComponent("a.saga").path,
            ])
            #expect(r.out == "RangeError\n", "\(r.err)")
        }
    }

    /// A line for a function the program never calls says so, with the name it calls nearest.
    @Test func aMisspeltMocksLineNamesTheFunctionMeant() async {
        let program = "extern func api.get(x)\nsaga main {\n  let r = call api.get(1)\n}\n"
        let mocks = #"{"call":"api.get","result":1}"# + "\n" + #"{"call":"api.gte","result":2}"# + "\n"
        await withFiles(["a.saga": program, "a.mocks.jsonl": mocks]) { dir in
            let r = await runSagarun([
                "run", "--virtual-time", "--mocks", dir.appendingPathComponent("a.mocks.jsonl").path,
                dir.appendingPathComponent("a.saga").path,
            ])
            #expect(r.err.contains("(api.gte) was not used: the program calls no 'api.gte'; did you mean 'api.get'?"))
        }
    }

    /// A run stopped by a limit ends, a call still in flight or not, and does not report the
    /// lines of the calls it never got to make: only the limit it met.
    @Test func aRunStoppedByALimitDoesNotReportTheLinesItNeverReached() async {
        let program = """
            extern func api.get(x)
            saga main {
              let a = call api.get(1)
              var i = 0
              while i < 100 { i = i + 1 }
              let b = call api.get(2)
            }

            """
        let mocks =
            #"{"call":"api.get","args":[1],"result":1}"# + "\n" + #"{"call":"api.get","args":[2],"result":2}"# + "\n"
        await withFiles(["a.saga": program, "a.mocks.jsonl": mocks]) { dir in
            let r = await runSagarun([
                "run", "--virtual-time", "--max-run-steps", "50", "--mocks",
                dir.appendingPathComponent("a.mocks.jsonl").path, dir.appendingPathComponent("a.saga").path,
            ])
            #expect(r.code == 1)
            #expect(
                r.err
                    == "error: the run took more than 50 steps; it was stopped; raise the limit with --max-run-steps\n")
        }
    }

    /// A call the mocks do not expect is reported once: as the failure of its saga when
    /// nothing catches it, in the summary after the run when the saga catches it.
    @Test func anUnexpectedCallIsReportedOnce() async {
        let uncaught = "extern func api.get(x)\nsaga main {\n  let r = call api.get(1)\n}\n"
        let caught =
            "extern func api.get(x)\nsaga main {\n  try { let r = call api.get(1) } catch e { log e.kind }\n}\n"
        let mocks = #"{"call": "api.get", "args": [2], "result": 5}"# + "\n"
        await withFiles(["uncaught.saga": uncaught, "caught.saga": caught, "m.jsonl": mocks]) { dir in
            for (file, printsKind) in [("uncaught.saga", false), ("caught.saga", true)] {
                let r = await runSagarun([
                    "run", dir.appendingPathComponent(file).path, "--mocks", dir.appendingPathComponent("m.jsonl").path,
                ])
                #expect(r.code == 1)
                let mentions = r.err.components(separatedBy: "unexpected call api.get(1)").count - 1
                #expect(mentions == 1, "\(file): \(r.err)")
                #expect(r.err.contains("error: mocks: unexpected call") == printsKind, "\(file): \(r.err)")
                #expect(r.out.contains("MockError") == printsKind)
            }
        }
    }

    /// A golden test fails on an unexpected call that failed its saga, even when the
    /// transcript is what the golden file says.
    @Test func aGoldenTestFailsOnAnUnexpectedCallThatFailedItsSaga() async {
        let source = "extern func api.get(x)\nsaga main {\n  let r = call api.get(1)\n}\n"
        let mocks = #"{"call": "api.get", "args": [2], "result": 5}"# + "\n"
        await withFiles(["app.saga": source, "app.mocks.jsonl": mocks, "app.golden": "state {}\n"]) { dir in
            let r = await runSagarun(["test", dir.path])
            #expect(r.code == 1)
            #expect(r.out.contains("mocks: unexpected call api.get(1)"), "\(r.out)")
        }
    }

    @Test func aMocksFileThatDoesNotParseIsAClearErrorWithItsLine() async {
        await withFiles(["app.saga": Self.app, "m.jsonl": "\n{\"call\": \"x\", \"result\": 1}\n{oops\n"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("app.saga").path, "--mocks",
                dir.appendingPathComponent("m.jsonl").path,
            ])
            #expect(r.code == 65)
            // `FILE:LINE:COLUMN: error: …`, as an input file's error: the `o` of `{oops`.
            #expect(r.err.contains("m.jsonl:3:2: error: unexpected 'o'"), "\(r.err)")
        }
    }

    @Test func testUpdateWritesAMissingGoldenAndAnEmptyFolderIsAnError() async {
        await withFiles(["app.saga": Self.app, "app.input.jsonl": "", "app.mocks.jsonl": ""]) { dir in
            let missing = await runSagarun(["test", dir.path])
            #expect(missing.code == 1)
            #expect(missing.out.contains("NO GOLDEN"))
            let update = await runSagarun(["test", "--update", dir.path])
            #expect(update.code == 0)
            #expect(update.out.contains("CREATED"))
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("app.golden").path))
            #expect(await runSagarun(["test", dir.path]).code == 0)
        }
        await withFiles([:]) { dir in
            let empty = await runSagarun(["test", dir.path])
            #expect(empty.code == 1)
            #expect(empty.err.contains("no golden tests under"))
        }
    }

    @Test func aMocksFileWithWindowsLineEndsParses() async {
        let mocks =
            #"{"call": "api.lookupSong", "result": 1}"# + "\r\n" + #"{"call": "api.lookupSong", "result": 2}"# + "\r\n"
        let input = #"{"type":"song/lookup","id":3}"# + "\n" + #"{"type":"song/lookup","id":4}"# + "\n"
        await withFiles(["app.saga": Self.app, "m.jsonl": mocks, "in.jsonl": input]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("app.saga").path, "--mocks",
                dir.appendingPathComponent("m.jsonl").path,
                "--input", dir.appendingPathComponent("in.jsonl").path, "--virtual-time", "--print-actions", "--memory",
            ])
            #expect(r.code == 0, "\(r.err)")
            #expect(r.out.contains(#"{"song":2,"type":"song/found"}"#))
        }
    }

    /// A saga that does not compile prints nothing: `--update` must not take that for its
    /// transcript.
    @Test func updateWritesNoGoldenForASagaThatDoesNotRun() async {
        await withFiles(["broken.saga": "saga main { log }\n", "broken.input.jsonl": ""]) { dir in
            let update = await runSagarun(["test", "--update", dir.path])
            #expect(update.code == 1)
            #expect(update.out.contains("it did not run, so no golden was written"))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("broken.golden").path))
        }
    }
}
