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
}
