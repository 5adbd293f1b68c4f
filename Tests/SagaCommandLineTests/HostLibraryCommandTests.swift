import Foundation
import Testing

/// The host library through `sagarun`: permission flags, the script's arguments, what `check`
/// says a script needs, and `--record` giving mocks that replay the run.
@Suite struct HostLibraryCommandTests {
    /// A folder with `script.saga` holding `source`, removed by `body`'s end.
    func withScript(_ source: String, _ body: (String, String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostcli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/script.saga"
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        try await body(folder, script)
    }

    static let copy = """
        saga main {
          let a = call args()
          let text = call file.read(a[0])
          call file.write(a[1], text + "!")
          log "copied \\(len(text)) characters"
        }
        """

    /// Without `--allow-…`, the call fails with a PermissionError naming the flag; with it,
    /// the script runs, its arguments after `--`.
    @Test func permissionsAndArguments() async throws {
        try await withScript(Self.copy) { folder, script in
            try "hello".write(toFile: folder + "/in.txt", atomically: true, encoding: .utf8)
            let denied = await runSagarun(["run", script, "--", folder + "/in.txt", folder + "/out.txt"])
            #expect(denied.code == 1)
            #expect(denied.err.contains("needs --allow-read"), "\(denied.err)")
            let ran = await runSagarun([
                "run", script, "--allow-read=\(folder)/in.txt", "--allow-write=\(folder)",
                "--", folder + "/in.txt", folder + "/out.txt",
            ])
            #expect(ran.code == 0, "\(ran.err)")
            #expect(ran.out == "copied 5 characters\n")
            #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "hello!")
            let usage = await runSagarun(["run", script, "--allow-read="])
            #expect(usage.code == 64)
            let spaced = await runSagarun(["run", script, "--allow-write", folder])
            #expect(spaced.code == 64)
            #expect(spaced.err.contains("a list goes after '=', as in --allow-write=PATH"), "\(spaced.err)")
        }
    }

    /// `check` says which flags a script's calls need.
    @Test func checkListsThePermissionsAScriptNeeds() async throws {
        try await withScript(Self.copy) { _, script in
            let text = await runSagarun(["check", script])
            #expect(text.code == 0)
            #expect(text.out == "\(script): needs --allow-read (file.read), --allow-write (file.write)\n")
            let json = await runSagarun(["check", "--format", "json", script])
            #expect(json.out.contains(#""permissions":{"\#(script)":["--allow-read","--allow-write"]}"#), "\(json.out)")
        }
    }

    /// `--record` writes the calls as mocks; with them, the run needs no permission and
    /// prints the same.
    @Test func recordedCallsReplayAsMocks() async throws {
        try await withScript(Self.copy) { folder, script in
            try "abc".write(toFile: folder + "/in.txt", atomically: true, encoding: .utf8)
            let mocks = folder + "/script.mocks.jsonl"
            let arguments = ["--", folder + "/in.txt", folder + "/out.txt"]
            let recorded = await runSagarun(["run", script, "--allow-all", "--record", mocks] + arguments)
            #expect(recorded.code == 0, "\(recorded.err)")
            let lines = try String(contentsOfFile: mocks, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.first?.contains(#""call":"args""#) == true)
            try FileManager.default.removeItem(atPath: folder + "/out.txt")
            let replayed = await runSagarun(["run", script, "--mocks", mocks] + arguments)
            #expect(replayed.code == 0, "\(replayed.err)")
            #expect(replayed.out == recorded.out)
            #expect(!FileManager.default.fileExists(atPath: folder + "/out.txt"))
        }
    }
}
