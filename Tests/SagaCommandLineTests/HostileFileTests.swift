import Foundation
import SagaCommandLine
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that are not what their names say, and writes that fail: a clear message and an
/// exit code, never a signal or a hang.
@Suite(.timeLimit(.minutes(5))) struct HostileFileTests {
    static let saves = """
        saga main {
          put "persistence/save" { entity: "songs", element: { id: 1 } }
          let r = take ["persistence/saved", "persistence/saveFailed"]
          log r.type
        }
        """

    /// A folder named as each kind of store file: verify and open both refuse it, with the
    /// same words (opening must not abort the process trying to read a folder).
    @Test(arguments: ["log-0000000000000001", "snapshot-0000000000000002", "log-0000000000000002.tmp"])
    func aFolderNamedLikeAStoreFileIsRefusedByVerifyAndOpen(name: String) async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves]) { dir in
            let store = dir.appendingPathComponent("store").path
            try FileManager.default.createDirectory(
                atPath: store + "/" + name, withIntermediateDirectories: true)
            let verify = await runSagarun(["store", "verify", store])
            #expect(verify.code == 74)
            #expect(verify.err.contains("\(name) is not a regular file"))
            let open = await runSagarun(["run", dir.appendingPathComponent("save.saga").path, "--store", store])
            #expect(open.code == 74)
            #expect(open.err.contains("\(name) is not a regular file"))
        }
    }

    /// A FIFO named like a log segment: reading it would wait for a writer for ever.
    @Test func aFIFONamedLikeAStoreFileIsRefusedWithoutHanging() async throws {
        try await ExitCodeTests.withFiles([:]) { dir in
            let store = dir.appendingPathComponent("store").path
            try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
            #expect(mkfifo(store + "/log-0000000000000001", 0o644) == 0)
            let verify = await runSagarun(["store", "verify", store])
            #expect(verify.code == 74)
            #expect(verify.err.contains("is not a regular file"))
        }
    }

    @Test func aFolderAsTheInputFileIsAnInputThatCannotBeRead() async {
        await ExitCodeTests.withFiles(["main.saga": "saga main { take \"x\" }"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("main.saga").path, "--input", dir.path, "--virtual-time", "--memory",
            ])
            #expect(r.code == 66)
            #expect(r.err.contains("cannot read input file"))
        }
    }

    /// A mocks file that cannot be written (a full disk) fails the run with 74 and says why;
    /// the device is written to, not replaced by a file.
    @Test func aRecordOnAFullDiskFailsTheRunAndLeavesTheDevice() async throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        await ExitCodeTests.withFiles(["main.saga": "saga main {\n  let a = call args()\n  log len(a)\n}\n"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("main.saga").path, "--record", "/dev/full", "--virtual-time",
                "--memory",
            ])
            #expect(r.code == 74)
            #expect(r.err.contains("cannot write the mocks file '/dev/full': No space left on device"), "\(r.err)")
        }
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    /// `fmt` keeps a file's permissions.
    @Test func formattingKeepsTheFilesPermissions() async throws {
        try await ExitCodeTests.withFiles(["main.saga": "saga main {   log 1 }\n"]) { dir in
            let path = dir.appendingPathComponent("main.saga").path
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            #expect(await runSagarun(["fmt", path]).code == 0)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "saga main { log 1 }\n")
            let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }

    /// A trace that cannot be written (a full disk) fails the run with 74 and says why.
    @Test func aTraceOnAFullDiskFailsTheRun() async {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        await ExitCodeTests.withFiles(["main.saga": "saga main { log 1 }"]) { dir in
            let r = await runSagarun([
                "run", dir.appendingPathComponent("main.saga").path, "--trace", "/dev/full", "--virtual-time",
                "--memory",
            ])
            #expect(r.code == 74)
            #expect(r.err.contains("cannot write the trace file '/dev/full'"))
        }
    }
}
