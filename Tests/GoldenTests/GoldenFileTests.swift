import Foundation
import SagaCommandLine
import Testing

/// Every program under `Sagas/` with a golden transcript runs through the same code path
/// as `sagarun test`, and its transcript must match to the letter.
@Suite struct GoldenFileTests {
    static let sagas: String = {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sagas").path
    }()

    static let cases = GoldenSuite.discover([sagas])

    @Test func theExamplesAreThere() {
        #expect(Self.cases.count >= 30)
    }

    @Test(arguments: cases)
    func transcriptMatchesGolden(_ c: GoldenSuite.Case) async {
        let result = await GoldenSuite.run(c)
        #expect(result.actual == result.expected, "\(c.saga)\n\(result.errors)")
    }

    static let failureCases = cases.filter {
        FileManager.default.fileExists(atPath: String($0.saga.dropLast(".saga".count)) + ".failures.golden")
    }

    @Test func someProgramsKeepAFailureInjectionSummary() {
        #expect(!Self.failureCases.isEmpty)
    }

    /// `sagarun test --inject-failures`: the summary of making each call fail in turn.
    @Test(arguments: failureCases)
    func failureInjectionSummaryMatchesGolden(_ c: GoldenSuite.Case) async throws {
        let expected = try String(
            contentsOfFile: String(c.saga.dropLast(".saga".count)) + ".failures.golden", encoding: .utf8)
        #expect(await FailureInjection.summary(for: c, twice: false).text == expected)
    }
}
