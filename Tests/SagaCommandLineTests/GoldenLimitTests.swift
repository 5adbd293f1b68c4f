import Foundation
import SagaCommandLine
import SagaRuntime
import Testing

/// What bounds a golden test: a program that never ends is stopped once its transcript passes
/// the test's limit, and a diff of long texts stays short and quick.
@Suite struct GoldenLimitTests {
    /// A polling loop on the virtual clock never ends: its test stops it at the limit and
    /// fails, saying why, instead of filling memory; `--update` writes no golden from it.
    @Test func aProgramThatNeverEndsIsStoppedAtTheTranscriptLimit() async {
        let pad = String(repeating: "x", count: 4000)
        let program = """
            saga main {
              loop {
                put "poll" { pad: "\(pad)" }
                delay 1s
              }
            }
            """
        await ExitCodeTests.withFiles(["poll.saga": program, "poll.golden": "action {\"type\":\"poll\"}\n"]) { dir in
            let saga = dir.appendingPathComponent("poll.saga").path
            let r = await runSagarun(["test", saga])
            #expect(r.code == 1)
            #expect(r.out.contains("FAIL \(saga)"))
            #expect(
                r.out.contains(
                    "the transcript passed 16 MiB: the run was stopped there "
                        + "(a program that never ends, or a transcript too large for a golden file)"))
            #expect(r.out.contains("more lines differ"))
            #expect(r.out.utf8.count < 4 << 20)
            let update = await runSagarun(["test", "--update", saga])
            #expect(update.code == 1)
            #expect(update.out.contains("and no golden written"))
            // No diff against the golden it will not write: how the transcript begins.
            #expect(update.out.contains("  the transcript begins:\n    action {\"pad\":"), "\(update.out.prefix(500))")
            #expect(!update.out.contains("more lines differ"))
            #expect(update.out.split(separator: "\n").count < 20)
            let golden = try? String(contentsOf: dir.appendingPathComponent("poll.golden"), encoding: .utf8)
            #expect(golden == "action {\"type\":\"poll\"}\n")
        }
    }

    /// The diff of a one-line golden against 200,000 lines shows its first hunk lines and
    /// counts the rest.
    @Test func aLongDiffIsCut() {
        let actual = (0..<200_000).map { "line \($0)\n" }.joined()
        let diff = GoldenSuite.diff(expected: "first\n", actual: actual, expectedName: "t.golden")
        let lines = diff.split(separator: "\n")
        #expect(lines.count < 500)
        #expect(lines.last == "... 199601 more lines differ")
    }

    /// Two long texts that differ in one line give that line's hunk, whatever their length
    /// (the lines they share at both ends are not compared one by one).
    @Test func aDiffOfLongTextsShowsTheLineThatDiffers() {
        let expected = (0..<50_000).map { "line \($0)\n" }.joined()
        let actual = expected.replacingOccurrences(of: "line 25000\n", with: "line twenty-five thousand\n")
        let diff = GoldenSuite.diff(expected: expected, actual: actual, expectedName: "t.golden")
        #expect(
            diff == """
                --- t.golden
                +++ actual
                @@ -24998,7 +24998,7 @@
                 line 24997
                 line 24998
                 line 24999
                -line 25000
                +line twenty-five thousand
                 line 25001
                 line 25002
                 line 25003

                """)
    }
}
