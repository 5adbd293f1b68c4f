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
}
