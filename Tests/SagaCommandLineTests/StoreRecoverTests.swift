import Foundation
import SagaCommandLine
import Testing

/// `sagarun store recover`: a store damaged in the middle of its log (which verify and run
/// refuse, exit 74) is rebuilt from every record whose checksum holds.
@Suite struct StoreRecoverTests {
    static let saves = """
        saga main {
          for i in range(10) {
            put "persistence/save" { entity: "songs", element: { id: i, title: "song \\(i)" } }
            take "persistence/saved"
          }
        }
        """

    static let count = """
        saga main {
          put "persistence/request" { entity: "songs" }
          let r = take "persistence/received"
          log len(r.elements)
        }
        """

    @Test func aLogDamagedInTheMiddleIsRecoveredWithEveryWholeRecord() async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves, "count.saga": Self.count]) { dir in
            let store = dir.appendingPathComponent("store").path
            let filled = await runSagarun(["run", dir.appendingPathComponent("save.saga").path, "--store", store])
            #expect(filled.code == 0, "\(filled.err)")
            // One byte in the middle of the log: a bad record followed by valid ones.
            let log = store + "/log-0000000000000001"
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
            let middle = bytes.count / 2
            bytes[middle] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: log))
            let refused = await runSagarun(["store", "verify", store])
            #expect(refused.code == 74)
            #expect(refused.err.contains("a bad record is followed by valid ones"))
            // It says what to do.
            #expect(refused.err.contains("note: 'sagarun store recover \(store)' rebuilds the store"), "\(refused.err)")
            let run = await runSagarun(["run", dir.appendingPathComponent("count.saga").path, "--store", store])
            #expect(run.code == 74)
            #expect(run.err.contains("note: 'sagarun store recover \(store)' rebuilds the store"), "\(run.err)")
            // The report lists the damaged file.
            #expect(refused.out.contains("  log-0000000000000001  damaged at offset "), "\(refused.out)")

            let recovered = await runSagarun(["store", "recover", store])
            #expect(recovered.code == 0, "\(recovered.err)")
            #expect(
                recovered.out.contains(
                    "recovered 9 elements from the records whose checksums hold (9 log records replayed)"))
            #expect(recovered.out.contains("damaged bytes passed over"), "\(recovered.out)")
            // The damaged log is kept as it was, beside the store, which does not read it.
            #expect(
                recovered.out.contains(
                    "  log-0000000000000001 is kept as before-recover-log-0000000000000001, as it was"),
                "\(recovered.out)")
            let kept = try [UInt8](
                Data(contentsOf: URL(fileURLWithPath: store + "/before-recover-log-0000000000000001")))
            #expect(kept == bytes)
            let verified = await runSagarun(["store", "verify", store])
            #expect(verified.code == 0, "\(verified.err)")
            #expect(verified.err.contains("a file 'store recover' replaced, kept as it was"), "\(verified.err)")
            let counted = await runSagarun(["run", dir.appendingPathComponent("count.saga").path, "--store", store])
            #expect(counted.out == "9\n", "\(counted.err)")
        }
    }

    /// A stray file named as the next log segment, holding no record, is passed over and named
    /// in the report, and kept with the other files recovery replaced.
    @Test func aFileThatHoldsNoRecordIsNamed() async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves, "count.saga": Self.count]) { dir in
            let store = dir.appendingPathComponent("store").path
            let filled = await runSagarun(["run", dir.appendingPathComponent("save.saga").path, "--store", store])
            #expect(filled.code == 0, "\(filled.err)")
            let junk = Array(repeating: "not a log segment, only text\n", count: 4).joined()
            try junk.write(toFile: store + "/log-0000000000000002", atomically: true, encoding: .utf8)
            let recovered = await runSagarun(["store", "recover", store])
            #expect(recovered.code == 0, "\(recovered.err)")
            #expect(
                recovered.out.contains(
                    "  log-0000000000000002: no whole record in it (a stray file, or damaged throughout)\n"),
                "\(recovered.out)")
            #expect(!recovered.out.contains("log-0000000000000001:"))
            let counted = await runSagarun(["run", dir.appendingPathComponent("count.saga").path, "--store", store])
            #expect(counted.out == "10\n", "\(counted.err)")
        }
    }

    /// A log whose header is damaged still gives up its whole records; one of a newer format
    /// is refused (exit 74) and left as it is, not rebuilt as an empty store.
    @Test func aLogWithADamagedHeaderIsRecoveredAndANewerOneRefused() async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves, "count.saga": Self.count]) { dir in
            for (offset, byte, recovers) in [(0, UInt8(ascii: "X"), true), (8, UInt8(9), false)] {
                let store = dir.appendingPathComponent("store-\(offset)").path
                let filled = await runSagarun(["run", dir.appendingPathComponent("save.saga").path, "--store", store])
                #expect(filled.code == 0, "\(filled.err)")
                let log = store + "/log-0000000000000001"
                var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
                bytes[offset] = byte
                try Data(bytes).write(to: URL(fileURLWithPath: log))
                let recovered = await runSagarun(["store", "recover", store])
                if recovers {
                    #expect(recovered.code == 0, "\(recovered.err)")
                    #expect(
                        recovered.out.contains(
                            "recovered 10 elements from the records whose checksums hold (10 log records replayed)"),
                        "\(recovered.out)")
                    let counted = await runSagarun(
                        ["run", dir.appendingPathComponent("count.saga").path, "--store", store])
                    #expect(counted.out == "10\n", "\(counted.err)")
                } else {
                    #expect(recovered.code == 74, "\(recovered.out)")
                    #expect(recovered.err.contains("newer version"), "\(recovered.err)")
                    let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: log)))
                    #expect(after == bytes)
                }
            }
        }
    }

    /// Fills `store` with the ten songs of `saves`, compacts it, and returns its snapshot's path.
    static func compactedStore(_ store: String, filledBy saves: String) async throws -> String {
        let filled = await runSagarun(["run", saves, "--store", store])
        #expect(filled.code == 0, "\(filled.err)")
        #expect(await runSagarun(["store", "compact", store]).code == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: store)
        let name = try #require(names.first { $0.hasPrefix("snapshot-") }, "\(names)")
        return store + "/" + name
    }

    /// A damaged snapshot gives up its whole records too: a bad element record loses that
    /// element alone; a bad entity record loses the elements after it, which are not put in
    /// an entity that may not be theirs.
    @Test(arguments: [(true, 9, 0), (false, 0, 10)])
    func aDamagedSnapshotIsRecoveredRecordByRecord(inAnElement: Bool, kept: Int, orphaned: Int) async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves, "count.saga": Self.count]) { dir in
            let store = dir.appendingPathComponent("store").path
            let snapshot = try await Self.compactedStore(store, filledBy: dir.appendingPathComponent("save.saga").path)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
            // The entity record follows the 32-byte header; the elements' records follow it.
            let damaged = inAnElement ? bytes.count / 2 : 32 + 10
            bytes[damaged] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: snapshot))
            #expect(await runSagarun(["store", "verify", store]).code == 74)

            let recovered = await runSagarun(["store", "recover", store])
            #expect(recovered.code == 0, "\(recovered.err)")
            #expect(recovered.out.contains("recovered \(kept) element"), "\(recovered.out)")
            #expect(recovered.out.contains("damaged bytes passed over"), "\(recovered.out)")
            #expect(
                recovered.out.contains("\(orphaned) elements of a damaged entity record passed over") == (orphaned > 0),
                "\(recovered.out)")
            #expect(await runSagarun(["store", "verify", store]).code == 0)
            let counted = await runSagarun(["run", dir.appendingPathComponent("count.saga").path, "--store", store])
            #expect(counted.out == "\(kept)\n", "\(counted.err)")
        }
    }

    /// A snapshot cut short loses the elements after the cut: the report counts them, from the
    /// counts the snapshot's whole entity record gives.
    @Test func aSnapshotCutShortCountsTheElementsItLost() async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves, "count.saga": Self.count]) { dir in
            let store = dir.appendingPathComponent("store").path
            let snapshot = try await Self.compactedStore(store, filledBy: dir.appendingPathComponent("save.saga").path)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: snapshot)))
            try Data(bytes[..<(bytes.count / 2)]).write(to: URL(fileURLWithPath: snapshot))

            let recovered = await runSagarun(["store", "recover", store])
            #expect(recovered.code == 0, "\(recovered.err)")
            let counted = await runSagarun(["run", dir.appendingPathComponent("count.saga").path, "--store", store])
            let kept = try #require(Int(counted.out.trimmingCharacters(in: .newlines)), "\(counted.out)")
            #expect(kept > 0 && kept < 10)
            #expect(
                recovered.out.contains(
                    "; \(10 - kept) element\(10 - kept == 1 ? "" : "s") the snapshot lists could not be read"),
                "\(recovered.out)")
        }
    }

    /// A store whose snapshot was removed is rebuilt from its log, and the report says which
    /// records no file holds any more.
    @Test func aStoreWithoutItsSnapshotSaysWhatIsMissing() async throws {
        try await ExitCodeTests.withFiles(["save.saga": Self.saves]) { dir in
            let store = dir.appendingPathComponent("store").path
            let save = dir.appendingPathComponent("save.saga").path
            #expect(await runSagarun(["run", save, "--store", store]).code == 0)
            #expect(await runSagarun(["store", "compact", store]).code == 0)
            #expect(await runSagarun(["run", save, "--store", store]).code == 0)
            for name in try FileManager.default.contentsOfDirectory(atPath: store) where name.hasPrefix("snapshot-") {
                try FileManager.default.removeItem(atPath: store + "/" + name)
            }
            let recovered = await runSagarun(["store", "recover", store])
            #expect(recovered.code == 0, "\(recovered.err)")
            #expect(
                recovered.out.contains("; records 1 to 10 are in no file here (a snapshot removed?)"),
                "\(recovered.out)")
        }
    }

    /// A folder with no store is said to be one, with exit code 66 (no input), and the
    /// maintenance commands leave nothing in it (no lock file).
    @Test func aFolderWithNoStoreIsNotRecovered() async {
        await ExitCodeTests.withFiles([:]) { dir in
            for command in ["recover", "compact", "verify"] {
                let r = await runSagarun(["store", command, dir.path])
                #expect(r.code == 66, "\(command)")
                #expect(r.err.contains("no saga store here"), "\(command)")
                #expect((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) == [], "\(command)")
            }
            let verify = await runSagarun(["store", "verify", dir.path])
            #expect(verify.out == "\(dir.path): no saga store here\n")
            let missing = await runSagarun(["store", "verify", dir.path + "/nothing"])
            #expect(missing.code == 66)
            #expect(missing.err.contains("no such folder"))
        }
    }
}
