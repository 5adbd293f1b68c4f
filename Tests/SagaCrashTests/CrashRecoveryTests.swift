import Foundation
import SagaCore
import SagaPersistence
import SagaTestSupport
import Testing

/// The durability promise of the persistence layer, tested the hard way: `sagarun` saves in a
/// loop and is killed (SIGKILL) at a random moment; every save it acknowledged must be in the
/// store afterwards, and the store must open again, round after round, in the same folder.
@Suite("Crash recovery: sagarun killed while saving")
struct CrashRecoveryTests {
    @Test(
        "every acknowledged save survives a SIGKILL at a random moment",
        .enabled(if: SagarunBinary.path != nil, Comment(rawValue: SagarunBinary.missingReason)),
        .timeLimit(.minutes(60)))
    func acknowledgedSavesSurviveRandomKills() async throws {
        let sagarun = try #require(SagarunBinary.path)
        let settings = CrashSettings.fromEnvironment()
        var random = SplitMix64(seed: settings.seed)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("saga-crash-\(UUID().uuidString)")
            .path
        let storePath = folder + "/store"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var failed = false
        defer { if !failed { try? FileManager.default.removeItem(atPath: folder) } }

        // Every id any round acknowledged, with the `n` it was saved with.
        var acknowledged: [String: Int] = [:]
        for round in 0..<settings.rounds {
            let moment = KillMoment.forRound(round, using: &random)
            let context =
                "round \(round) of \(settings.rounds), killed \(moment), SAGA_CRASH_SEED=\(settings.seed), folder \(folder)"
            func fail(_ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
                failed = true
                Issue.record(Comment(rawValue: "\(message) (\(context))"), sourceLocation: sourceLocation)
            }

            // Arrange: this round's saga, run against the shared store.
            let sagaPath = folder + "/loop-\(round).saga"
            try SavingLoop.source(round: round).write(toFile: sagaPath, atomically: true, encoding: .utf8)
            let child = ChildProcess(executable: sagarun, arguments: ["run", sagaPath, "--store", storePath])
            try child.start()

            // Act: kill it mid-flight.
            if case .afterFirstSave = moment, !child.waitForFirstLine(timeout: .seconds(60)) {
                fail("sagarun acknowledged no save within 60 s")
            }
            try await Task.sleep(for: .milliseconds(moment.milliseconds))
            if !child.kill() {
                fail("sagarun ended before it was killed (\(child.exitDescription)): \(child.standardError)")
                return
            }

            // A `--sanitize` build of sagarun prints its reports on standard error; a thread
            // sanitizer runs on after one, so only its output tells.
            let standardError = child.standardError
            let sanitizerMarkers = ["WARNING: ThreadSanitizer", "ERROR: AddressSanitizer", "ERROR: LeakSanitizer"]
            if sanitizerMarkers.contains(where: { standardError.contains($0) }) {
                fail("sagarun reported a sanitizer error: \(standardError)")
                return
            }

            // The transcript: `saved r<round>-0`, `saved r<round>-1`, … in order, nothing else.
            let lines = child.completeLines
            let expectedLines = (0..<lines.count).map { SavingLoop.line(round: round, $0) }
            if lines != expectedLines {
                fail("unexpected transcript: \(lines.prefix(5))… (stderr: \(child.standardError))")
                return
            }
            for i in 0..<lines.count { acknowledged[SavingLoop.id(round: round, i)] = i }

            // Assert: the store opens (a torn tail is cut off, anything worse is an error) …
            let store: FileStore
            do {
                store = try FileStore.open(directory: storePath)
            } catch {
                fail("the store does not open after the kill: \(error)")
                return
            }
            let all = try await store.query(entity: "items", Query())
            let thisRound = try await store.query(
                entity: "items", Query.parse(["where": ["id": ["prefix": .string("r\(round)-")]]]))
            await store.close()

            // … every acknowledged save of every round so far is there, as it was saved …
            var stored: [String: Value] = [:]
            for element in all { if case .string(let id) = element["id"] { stored[id] = element } }
            let lost = acknowledged.filter { id, n in stored[id]?["n"] != .int(n) }.keys.sorted()
            if !lost.isEmpty {
                fail("\(lost.count) acknowledged saves lost or changed, e.g. \(lost.prefix(10))")
            }

            // … and this round's saves form an unbroken run: the acknowledged ones, plus at
            // most the one that was in flight (written, not yet acknowledged) when it died.
            let count = thisRound.count
            let expectedIDs = Set((0..<count).map { Value.string(SavingLoop.id(round: round, $0)) })
            if Set(thisRound.map { $0["id"] }) != expectedIDs || count < lines.count || count > lines.count + 1 {
                fail("round \(round) stored \(count) elements for \(lines.count) acknowledged saves, or with gaps")
            }
            if all.count != stored.count || stored.count < acknowledged.count {
                fail(
                    "the store holds \(all.count) elements, \(stored.count) distinct, for \(acknowledged.count) acknowledged"
                )
            }
        }

        // A run whose kills all came before the first save would prove nothing.
        #expect(!acknowledged.isEmpty, "no round acknowledged a save (SAGA_CRASH_SEED=\(settings.seed))")
        print(
            "crash test: \(settings.rounds) kills, \(acknowledged.count) acknowledged saves all found (SAGA_CRASH_SEED=\(settings.seed))"
        )
    }
}
