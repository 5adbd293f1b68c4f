import Foundation
import SagaCommandLine
import SagaCore
import SagaPersistence
import Synchronization
import Testing

/// `sagarun store verify|compact`, and `sagarun run` on a faulty store: a clear message and
/// exit code 74, never a crash.
@Suite struct StoreCommandTests {
    func run(_ args: [String], fileSystem: FileSystem = .posix) async -> (code: Int32, out: String, err: String) {
        let io = CapturedIO()
        io.storeFileSystem = fileSystem
        let code = await SagaRunTool.main(args, io: io)
        return (code, io.stdout, io.stderr)
    }

    static let save = PersistenceCommandTests.save

    static let saveOne = """
        saga main {
          put "persistence/save" { entity: "songs", element: { id: 3, title: "Giant Steps" } }
          let r = take ["persistence/saved", "persistence/saveFailed"]
          log r.type
        }
        """

    /// A folder with the programs and a store that `save.saga` filled (records 1 and 2).
    func withStore(_ body: (_ dir: URL, _ store: String) async throws -> Void) async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.save, "one.saga": Self.saveOne]) { dir in
            let store = dir.appendingPathComponent("store").path
            let filled = await run([dir.appendingPathComponent("save.saga").path, "--virtual-time", "--store", store])
            #expect(filled.code == 0)
            try await body(dir, store)
        }
    }

    func bytes(_ path: String) -> [UInt8] { (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] }

    func write(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    @Test func verifyReportsASoundStore() async throws {
        try await withStore { _, store in
            let r = await run(["store", "verify", store])
            #expect(r.code == 0 && r.err.isEmpty)
            #expect(
                r.out == """
                    \(store): sound: 1 file, 146 bytes, 2 elements, last record 2
                      log-0000000000000001  146 bytes  2 records, 1 to 2
                      entity songs: 2 elements

                    """)
            let json = await run(["store", "verify", "--format", "json", store])
            #expect(json.code == 0)
            let document = try JSONReader.parse(json.out)
            #expect(document["sound"] == true && document["entities"] == ["songs": 2])
            #expect(document["lastSequence"] == 2 && document["problem"] == .null)
            guard case .list(let files) = document["files"] else {
                Issue.record("no files: \(json.out)")
                return
            }
            #expect(files.map { $0["name"] } == ["log-0000000000000001"])
        }
    }

    @Test func damageInTheMiddleIsRefusedByRunAndVerifyNamingFileAndOffset() async throws {
        try await withStore { dir, store in
            let log = store + "/log-0000000000000001"
            var data = bytes(log)
            data[32 + 8 + 20] ^= 0x01  // inside the first record's payload; the second stays valid
            write(log, data)
            let expected =
                "the log is damaged: a bad record is followed by valid ones (refusing to drop them) (\(log) at offset 32)"
            let r = await run([dir.appendingPathComponent("one.saga").path, "--store", store])
            #expect(r.code == 74)
            let note =
                "note: 'sagarun store recover \(store)' rebuilds the store from every record that is still whole, "
                + "keeping the damaged files beside it\n"
            #expect(r.err == "error: cannot open the store '\(store)': \(expected)\n" + note)
            let v = await run(["store", "verify", store])
            #expect(v.code == 74)
            #expect(v.out == "\(store): damaged\n  log-0000000000000001  damaged at offset 32\n")
            #expect(v.err == "error: \(expected)\n" + note)
            let json = await run(["store", "verify", store, "--format=json"])
            #expect(json.code == 74)
            let document = try JSONReader.parse(json.out)
            let problem = document["problem"]
            #expect(problem["code"] == "corrupt" && problem["offset"] == 32 && problem["file"] == .string(log))
            // The damaged file is listed, as in the text report.
            #expect(document["files"] == [["name": "log-0000000000000001", "damaged": true, "offset": 32]])
            #expect(bytes(log) == data, "nothing was repaired or cut")
        }
    }

    @Test func aNewerFormatIsRefusedWithBothVersions() async throws {
        try await withStore { dir, store in
            let log = store + "/log-0000000000000001"
            var data = bytes(log)
            data[8] = 2
            write(log, data)
            let r = await run([dir.appendingPathComponent("one.saga").path, "--store", store])
            #expect(r.code == 74)
            #expect(r.err.contains("written by a newer version (format 2); this sagarun reads up to format 1"))
            #expect(await run(["store", "verify", store]).code == 74)
            #expect(await run(["store", "compact", store]).code == 74)
        }
    }

    @Test func aMissingFileIsRefused() async throws {
        try await withStore { dir, store in
            #expect(await run(["store", "compact", store]).code == 0)
            try FileManager.default.removeItem(atPath: store + "/log-0000000000000002")
            let r = await run([dir.appendingPathComponent("one.saga").path, "--store", store])
            #expect(r.code == 74)
            #expect(r.err.contains("log-0000000000000002 is missing"))
            #expect(await run(["store", "verify", store]).code == 74)
        }
    }

    /// A `LOCK` that is a folder fails every run; verify says so too, rather than "sound".
    @Test func aLockThatIsAFolderIsRefusedByVerifyAsByRun() async throws {
        try await withStore { dir, store in
            try? FileManager.default.removeItem(atPath: store + "/LOCK")
            try FileManager.default.createDirectory(atPath: store + "/LOCK", withIntermediateDirectories: false)
            let v = await run(["store", "verify", store])
            #expect(v.code == 74)
            #expect(v.err.contains("LOCK is not a regular file"), "\(v.err)")
            #expect(await run([dir.appendingPathComponent("one.saga").path, "--store", store]).code == 74)
        }
    }

    @Test func noPermissionIsRefused() async throws {
        try await withStore { dir, store in
            var fs = FileSystem.posix
            let open = fs.open
            fs.open = { (path, flags, mode) throws(FileSystem.Failure) in
                if path.hasSuffix("/log-0000000000000001") {
                    throw FileSystem.Failure(call: "open", errno: EACCES, path: path)
                }
                return try open(path, flags, mode)
            }
            let r = await run([dir.appendingPathComponent("one.saga").path, "--store", store], fileSystem: fs)
            #expect(r.code == 74)
            #expect(
                r.err
                    == "error: cannot open the store '\(store)': open failed: Permission denied (\(store)/log-0000000000000001)\n"
            )
            #expect(await run(["store", "verify", store], fileSystem: fs).code == 74)
        }
    }

    @Test func aDiskThatFillsUpDuringARunFailsTheSaveAndTheRun() async throws {
        try await withStore { dir, store in
            // The first write is the lock file's pid; the disk is full after it.
            let writes = Mutex(0)
            var fs = FileSystem.posix
            let write = fs.write
            fs.write = { (fd, data) throws(FileSystem.Failure) in
                if writes.withLock({ n in
                    n += 1
                    return n
                }) > 1 {
                    throw FileSystem.Failure(call: "write", errno: ENOSPC)
                }
                return try write(fd, data)
            }
            let r = await run([dir.appendingPathComponent("one.saga").path, "--store", store], fileSystem: fs)
            #expect(r.out == "persistence/saveFailed\n", "the saga saw the failure")
            #expect(r.code == 74)
            #expect(
                r.err
                    == "error: the store '\(store)' failed: write failed: No space left on device (\(store)/log-0000000000000001)\n"
            )
            let v = await run(["store", "verify", store])
            #expect(v.code == 0 && v.out.contains("2 elements"), "what was acknowledged before is all there")
        }
    }

    @Test func compactRewritesAndReportsTheSizes() async throws {
        try await withStore { dir, store in
            for _ in 1...3 {
                _ = await run([dir.appendingPathComponent("save.saga").path, "--virtual-time", "--store", store])
            }
            let r = await run(["store", "compact", store])
            #expect(r.code == 0)
            #expect(r.out == "\(store): compacted: 2 elements; 488 bytes before, 176 after\n")
            let v = await run(["store", "verify", store])
            #expect(v.out.hasPrefix("\(store): sound: 2 files, 176 bytes, 2 elements, last record 8\n"))
        }
    }

    @Test func aStoreInUseIsNeitherVerifiedNorCompacted() async throws {
        try await withStore { _, store in
            let holder = try FileStore.open(directory: store)
            let v = await run(["store", "verify", store])
            #expect(v.code == 74 && v.err.contains("in use by this process (process \(getpid()))"))
            let c = await run(["store", "compact", store])
            #expect(c.code == 74 && c.err.contains("in use by this process (process \(getpid()))"))
            await holder.close()
        }
    }

    @Test func helpAndUsage() async {
        let help = await run(["store", "--help"])
        #expect(help.code == 0 && help.out.contains("SUBCOMMANDS:\n  verify"))
        #expect(await run(["help", "store"]).out == help.out)
        let verify = await run(["store", "verify", "--help"])
        #expect(verify.code == 0 && verify.out.hasPrefix("OVERVIEW: Check a file store without changing it"))
        #expect(await run(["store", "compact", "-h"]).out.contains("USAGE: sagarun store compact [<dir>]"))
        #expect(await run(["help", "store", "verify"]).out == verify.out)
        #expect(await run(["help", "store", "recover"]).out == run(["store", "recover", "--help"]).out)
        #expect(await run(["help", "store", "fix"]).code == 64)
        #expect(await run(["--help"]).out.contains("  store "))
        let missing = await run(["store"])
        #expect(missing.code == 64 && missing.err.contains("missing the store command: verify, compact or recover"))
        #expect(await run(["store", "fix"]).code == 64)
        let two = await run(["store", "verify", "a", "b"])
        #expect(two.code == 64 && two.err.contains("See 'sagarun store verify --help'"))
        #expect(await run(["store", "verify", "--format", "xml"]).code == 64)
    }
}
