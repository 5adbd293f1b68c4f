import Foundation
import Testing

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
}
