import Foundation
import Testing

/// Lines piped to `sagarun run` without `--input -` are not read: the run says so, so that a
/// program that did nothing is not a mystery.
@Suite struct UnreadStandardInputTests {
    @Test(
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(5)),
        arguments: [false, true])
    func linesPipedWithoutInputDashAreNoted(withInputDash: Bool) throws {
        let sagarun = try #require(SagarunBinary.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stdin-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "saga main {\n  every \"a\" as a { log \"got a\" }\n}\n".write(
            toFile: folder + "/main.saga", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["ASAN_OPTIONS=detect_leaks=0", sagarun, "run", folder + "/main.saga", "--memory"]
            + (withInputDash ? ["--input", "-"] : [])
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // Written before the run starts, so that the lines wait in the pipe whenever it ends.
        input.fileHandleForWriting.write(Data("{\"type\":\"a\"}\n".utf8))
        try input.fileHandleForWriting.close()
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(err)")
        if withInputDash {
            #expect(out == "got a\n")
            #expect(err.isEmpty, "\(err)")
        } else {
            #expect(out.isEmpty)
            #expect(
                err == "note: standard input holds lines the run did not read; pass --input - to read them\n", "\(err)")
        }
    }
}
