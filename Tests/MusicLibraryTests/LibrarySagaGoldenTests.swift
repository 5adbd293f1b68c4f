import Foundation
import MusicLibraryApp
import SagaTesting
import Testing

/// The app's scripted saga, golden-tested on its own with the app's real host functions:
/// `Golden/library.input.jsonl` in, `Golden/library.golden` out.
@Suite struct LibrarySagaGoldenTests {
    @Test func theLibrarySagaNormalizesAndSavesEachAddedSong() async throws {
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "library-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try LibrarySagas.source.write(
            to: folder.appendingPathComponent("library.saga"), atomically: true, encoding: .utf8)
        for name in ["library.input.jsonl", "library.golden"] {
            try FileManager.default.copyItem(
                at: golden.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }

        let report = await GoldenTests.run(folder.path, host: Catalog.hostFunctions)
        #expect(report.isSuccess, "\(report)")
    }
}
