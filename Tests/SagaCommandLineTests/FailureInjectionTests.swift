import Foundation
import Testing

/// `sagarun test --inject-failures` gives the same summary however the program is named, and
/// answers the program's `extern` calls from its mocks file.
@Suite struct FailureInjectionTests {
    /// The package's `Sagas/transactions` folder.
    static let transactions = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sagas/transactions").path

    /// The kept summary matches through an absolute path, a path through `..`, and the folder.
    @Test(arguments: ["trip_booking.saga", "../transactions/trip_booking.saga", ""])
    func theSummaryMatchesHoweverTheProgramIsNamed(name: String) async {
        let path = name.isEmpty ? Self.transactions : Self.transactions + "/" + name
        let run = await runSagarun(["test", "--inject-failures", path])
        #expect(run.code == 0, "\(run.out)\(run.err)")
        #expect(!run.out.contains("FAIL"), "\(run.out)")
    }

    /// With mocks, every call of the baseline run succeeds, so each one is made to fail in
    /// turn, and a failed charge runs the reservation's compensation.
    @Test func theMocksAnswerTheCallsThatDoNotFail() async {
        let run = await runSagarun(
            ["test", "--inject-failures", Self.transactions + "/host_compensation.saga"])
        #expect(run.code == 0, "\(run.out)\(run.err)")
        #expect(run.out.contains("2 calls without failures: ended cleanly"), "\(run.out)")
        #expect(run.out.contains("compensations: host_compensation.saga:13:7"), "\(run.out)")
    }

    /// A compensation that fails is listed as failed; the one that worked is listed as it is.
    @Test func aFailedCompensationIsListedAsFailed() async throws {
        let program = """
            extern func book(x)
            saga main {
              transaction {
                let a = call book("car")
                compensate { log "released car" }
                let b = call book("flight")
                compensate { throw "cannot release flight" }
                call book("hotel")
              }
            }
            """
        let mocks = """
            {"call": "book", "result": 1}
            {"call": "book", "result": 2}
            {"call": "book", "result": 3}
            """
        let files = ["trip.saga": program, "trip.mocks.jsonl": mocks, "trip.golden": "state {}\n"]
        await ExitCodeTests.withFiles(files) { dir in
            let run = await runSagarun(["test", "--inject-failures", dir.appendingPathComponent("trip.saga").path])
            #expect(
                run.out.contains(" fails: a saga failed (exit 1)") && run.out.contains("call #3 (book at trip.saga:"),
                "\(run.out)")
            #expect(run.out.contains("    compensations: trip.saga:7:5 (failed), trip.saga:5:5\n"), "\(run.out)")
            #expect(run.out.contains("    compensations: trip.saga:5:5\n"), "\(run.out)")
        }
    }

    /// A call made to fail takes its mocks line all the same, so the calls after it take
    /// theirs; a call that does not match the mocks is reported, and ends the run as under
    /// `sagarun run`, even when the saga catches its error.
    @Test func aFailedCallTakesItsLineAndAMismatchIsReported() async throws {
        let program = """
            extern func f(x)
            saga main {
              try { call f(1) } catch e { log "first failed" }
              try { call f(2) } catch e { log "second failed: \\(e.kind)" }
            }
            """
        let mocks = """
            {"call": "f", "args": [1], "result": "one"}
            {"call": "f", "args": [2], "result": "two"}
            """
        let files = ["shift.saga": program, "shift.mocks.jsonl": mocks, "shift.golden": "state {}\n"]
        try await ExitCodeTests.withFiles(files) { dir in
            let run = await runSagarun(["test", "--inject-failures", dir.appendingPathComponent("shift.saga").path])
            #expect(
                run.out.contains(
                    """
                      2 calls without failures: ended cleanly
                      call #1 (f at shift.saga:3:9) fails: ended cleanly
                        compensations: none
                      call #2 (f at shift.saga:4:9) fails: ended cleanly
                    """), "\(run.out)")
            #expect(!run.out.contains("mocks:"), "\(run.out)")
            // The second line now expects other arguments: every run's second call fails to match.
            try mocks.replacingOccurrences(of: "[2]", with: "[3]").write(
                to: dir.appendingPathComponent("shift.mocks.jsonl"), atomically: true, encoding: .utf8)
            let mismatched = await runSagarun(
                ["test", "--inject-failures", dir.appendingPathComponent("shift.saga").path])
            #expect(
                mismatched.out.contains(
                    """
                      2 calls without failures: a call did not match the mocks (exit 1)
                        mocks: unexpected call f(2): line 2 of shift.mocks.jsonl expects f(3)
                    """), "\(mismatched.out)")
        }
    }
}
