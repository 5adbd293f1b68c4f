import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A transcript that cannot be written is a failed run: `sagarun` with its standard output on
/// `/dev/full` (every write fails with ENOSPC) exits 74 and says why, instead of 0.
@Suite struct FullDiskOutputTests {
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")),
        .timeLimit(.minutes(5)))
    func standardOutputOnAFullDiskExits74() throws {
        let sagarun = try #require(SagarunBinary.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("full-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "saga main { log \"hello\" }\n".write(toFile: folder + "/main.saga", atomically: true, encoding: .utf8)
        // `sagarun` keeps its program until it exits, on purpose: a sanitized build's leak
        // check would take that for a leak and change the exit code.
        let status = system(
            "ASAN_OPTIONS=detect_leaks=0 '\(sagarun)' run '\(folder)/main.saga' --virtual-time --memory "
                + "> /dev/full 2> '\(folder)/err.txt'")
        let stderr = (try? String(contentsOfFile: folder + "/err.txt", encoding: .utf8)) ?? ""
        // `system` gives a wait status: the exit code is in its second byte.
        #expect((status >> 8) & 0xff == 74, "\(stderr)")
        #expect(stderr.contains("cannot write standard output"))
    }
}
