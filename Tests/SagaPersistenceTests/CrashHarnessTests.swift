import Foundation
import SagaCore
import SagaPersistence
import Testing

/// SQLite's crash test, on a ``SimulatedDisk``.
///
/// A scripted workload (saves, deletes, reopens, snapshots) runs once per call it makes, with
/// that one write, sync, rename or removal failing; then the power goes, keeping, dropping or
/// garbling whatever was not synced.
///
/// Reopening must give every acknowledged write, and of the writes that failed only ones that
/// were in flight, never a silent loss.
@Suite("Crash harness")
struct CrashHarnessTests {
    enum Op {
        case save(String, Value)
        case delete(String, Value)
        case compact
        case reopen
    }

    static let script: [Op] = {
        var ops: [Op] = []
        for i in 1...6 {
            ops.append(.save("items", ["id": .int(i), "text": .string(String(repeating: "x", count: 20 * i))]))
        }
        ops += [.delete("items", 3), .save("people", ["id": "ada", "born": 1815]), .reopen]
        ops.append(.save("items", ["id": 2, "text": "changed"]))
        for i in 7...10 { ops.append(.save("items", ["id": .int(i)])) }
        ops += [.compact, .delete("items", 1), .delete("people", "ada"), .reopen, .save("items", ["id": 11])]
        return ops
    }()

    static let directory = "/sim/store"
    /// Small enough that the workload writes snapshots on its own too.
    static let threshold = 250

    /// Which ops were acknowledged, and which failed while possibly reaching the disk.
    struct Outcome {
        var acknowledged: [Int] = []
        var uncertain: [Int] = []
    }

    /// A crashed disk to reopen, and what the workload had been told by then.
    struct Image {
        var disk: SimulatedDisk
        var crash: SimulatedDisk.Crash
        var outcome: Outcome
        var moment: String
    }

    /// Runs the script on `disk` (up to op `stopAfter`); returns the images of a crash right
    /// after the injected failure, and of one at the end.
    func run(_ disk: SimulatedDisk, stopAfter: Int? = nil) async -> [Image] {
        // A small preallocation: the log grows ahead of its records several times in the
        // workload, so faults and crashes land in and around the zeros too.
        let options = FileStore.Options(
            snapshotThreshold: Self.threshold, fileSystem: disk.fileSystem(), preallocation: 200)
        var store = try? FileStore.open(directory: Self.directory, options: options)
        var outcome = Outcome()
        var sessionFailed = store == nil
        var images: [Image] = []
        func crash(_ moment: String) -> [Image] {
            SimulatedDisk.Crash.all.map { Image(disk: disk.crashed($0), crash: $0, outcome: outcome, moment: moment) }
        }
        for (i, op) in Self.script.enumerated() {
            if let stopAfter, i > stopAfter { break }
            var failed = false
            switch op {
            case .reopen:
                await store?.close()
                store = try? FileStore.open(directory: Self.directory, options: options)
                sessionFailed = store == nil
            case .compact:
                do { try await store?.compact() } catch { failed = true }
            case .save(let entity, let element):
                guard let store else { continue }
                do {
                    _ = try await store.save(entity: entity, element: element)
                    outcome.acknowledged.append(i)
                } catch { failed = true }
            case .delete(let entity, let id):
                guard let store else { continue }
                do {
                    _ = try await store.delete(entity: entity, id: id)
                    outcome.acknowledged.append(i)
                } catch { failed = true }
            }
            // The first failure of a handle may have reached the disk; the later ones are
            // refused before writing anything.
            if failed, !sessionFailed {
                sessionFailed = true
                if case .compact = op {} else { outcome.uncertain.append(i) }
            }
            if disk.failed, images.isEmpty { images = crash("right after the failure") }
        }
        images += crash("at the end")
        await store?.close()
        return images
    }

    /// The elements after applying the script's ops at `indices`.
    func model(_ indices: Set<Int>) -> [String: [Value: Value]] {
        var state: [String: [Value: Value]] = [:]
        for (i, op) in Self.script.enumerated() where indices.contains(i) {
            switch op {
            case .save(let entity, let element): state[entity, default: [:]][element["id"]] = element
            case .delete(let entity, let id): state[entity]?[id] = nil
            default: break
            }
        }
        return state.filter { !$0.value.isEmpty }
    }

    /// Reopens `image` and checks it holds the acknowledged writes plus some of the uncertain ones.
    func check(_ image: Image, _ label: String) async {
        let context = "\(label), crash \(image.moment) (\(image.crash))"
        let store: FileStore
        do {
            store = try FileStore.open(
                directory: Self.directory, options: .init(fileSystem: image.disk.fileSystem(), preallocation: 200))
        } catch {
            Issue.record("\(context): reopening failed: \(error)")
            return
        }
        var found: [String: [Value: Value]] = [:]
        for entity in ["items", "people"] {
            let elements = (try? await store.query(entity: entity, Query())) ?? []
            if !elements.isEmpty { found[entity] = Dictionary(elements.map { ($0["id"], $0) }) { a, _ in a } }
        }
        await store.close()
        let uncertain = image.outcome.uncertain
        let possible = (0..<(1 << uncertain.count)).map { mask in
            model(
                Set(image.outcome.acknowledged + uncertain.indices.filter { mask >> $0 & 1 == 1 }.map { uncertain[$0] })
            )
        }
        #expect(
            possible.contains(found),
            "\(context): found \(summary(found)); acknowledged ops \(image.outcome.acknowledged), uncertain \(uncertain)"
        )
    }

    /// `items [1, 2], people ["ada"]`: the ids of each entity.
    func summary(_ state: [String: [Value: Value]]) -> String {
        state.keys.sorted().map { entity in
            let ids = (state[entity] ?? [:]).keys.map(\.canonicalJSON).sorted()
            return "\(entity) [\(ids.joined(separator: ", "))]"
        }.joined(separator: ", ")
    }

    @Test(arguments: [["write"], ["fsync", "fdatasync"], ["rename"], ["ftruncate", "unlink"]])
    func failingEachCallThenLosingPowerLosesNoAcknowledgedWrite(_ calls: [String]) async {
        let dry = SimulatedDisk()
        dry.faulty = Set(calls)
        let clean = await run(dry)
        #expect(clean.allSatisfy { $0.outcome.uncertain.isEmpty })
        let total = dry.faultyCalls
        #expect(total >= (calls == ["rename"] ? 5 : 3), "\(calls): only \(total) calls")
        for image in clean { await check(image, "no failure") }
        for n in 1...max(total, 1) {
            let disk = SimulatedDisk()
            disk.faulty = Set(calls)
            disk.failAt = n
            let images = await run(disk)
            #expect(disk.failed, "\(calls) #\(n) of \(total) never came")
            for image in images { await check(image, "\(calls.joined(separator: "/")) #\(n) fails") }
        }
    }

    @Test func losingPowerAfterEachOpKeepsEveryAcknowledgedWrite() async {
        for k in Self.script.indices {
            let images = await run(SimulatedDisk(), stopAfter: k)
            for image in images { await check(image, "power lost after op \(k)") }
        }
    }
}
