import Foundation
import SagaCore
import SagaLanguage
import SagaPersistence
import SagaRuntime

// The persistence benchmarks: acknowledged saves through the interpreter (one saga
// in a loop, and many at once, which group commit batches), and the reopen of a big store.

/// The `save-loop`, `save-many` and `reopen` workloads: a real `FileStore` in a temporary
/// folder, every save acknowledged only after its fdatasync, as under `sagarun --store`.
enum StoreWorkloads {
    /// One saga saving in a loop, each save awaited: acknowledged saves per second, bounded by
    /// one sync per save.
    static let saveLoop = Workload(
        name: "save-loop", summary: "one saga: put persistence/save, take persistence/saved, N times (file store)",
        defaultCount: 5_000
    ) { n in
        let source = """
            saga main {
              for i in range(\(n)) {
                put "persistence/save" { entity: "items", element: { id: i, name: "item \\(i)", n: i % 1000 } }
                let s = take "persistence/saved"
              }
            }
            """
        let run = try runWithFileStore(source, expecting: n)
        return Measurement(count: n, seconds: run.seconds, unit: "saves")
    }

    /// Many sagas saving at once, each waiting for its own acknowledgement (routed back by
    /// `ref` through one channel per task): group commit syncs a whole batch at a time.
    static let saveMany = Workload(
        name: "save-many",
        summary: "1,000 forked tasks each saving N/1,000 elements at once (file store, group commit)",
        defaultCount: 100_000
    ) { n in
        try manySaves(n) { tasks, perTask in
            """
            saga main {
              var inboxes = []
              for t in range(\(tasks)) {
                let c = channel
                inboxes = inboxes + [c]
              }
              let router = fork {
                loop {
                  let a = take "persistence/saved"
                  put inboxes[a.ref] a
                }
              }
              var workers = []
              for t in range(\(tasks)) {
                let inbox = inboxes[t]
                let w = fork {
                  for i in range(\(perTask)) {
                    put "persistence/save" { entity: "items", ref: t, element: { id: t * \(perTask) + i, name: "item \\(i)", n: i } }
                    let ack = take inbox
                  }
                }
                workers = workers + [w]
              }
              join workers
              cancel router
            }
            """
        }
    }

    /// 1,000 tasks saving `n` elements between them (at least one each), through `source`
    /// made for that many tasks and saves per task: acknowledged saves per second.
    private static func manySaves(_ n: Int, _ source: (_ tasks: Int, _ perTask: Int) -> String) throws -> Measurement {
        let tasks = 1_000
        let perTask = max(1, n / tasks)
        let total = tasks * perTask
        let run = try runWithFileStore(source(tasks, perTask), expecting: total)
        return Measurement(count: total, seconds: run.seconds, unit: "saves")
    }

    /// save-many as it is naturally written: each task waits for its own acknowledgement with
    /// `take … where it.element.id == id`, with no channels and no router.
    static let saveManyWhere = Workload(
        name: "save-many-where",
        summary: "save-many with each task taking its own acknowledgement by `where it.element.id == id`",
        defaultCount: 100_000
    ) { n in
        try manySaves(n) { tasks, perTask in
            """
            saga main {
              var workers = []
              for t in range(\(tasks)) {
                let w = fork {
                  for i in range(\(perTask)) {
                    let id = t * \(perTask) + i
                    put "persistence/save" { entity: "items", element: { id: id, name: "item \\(i)", n: i } }
                    let ack = take "persistence/saved" where it.element.id == id
                  }
                }
                workers = workers + [w]
              }
              join workers
            }
            """
        }
    }

    /// A store of N small elements, closed, then opened again and asked for one element by id:
    /// what a restart of `sagarun --store` costs before its first query returns.
    static let reopen = Workload(
        name: "reopen", summary: "fill a file store with N elements, then time open + one query by id",
        defaultCount: 1_000_000
    ) { n in
        let folder = temporaryFolder("reopen")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The fill goes through the store's own helper (1,000 concurrent writers, default
        // snapshot threshold), which also closes and reopens once: the timed open below is warm.
        let fill = try blocking {
            try await StoreBenchmark.run(directory: folder, count: n, concurrency: 1_000, snapshotThreshold: 64 << 20)
        }
        let wanted = n / 2
        let query = try Query.parse(["where": ["id": .int(wanted)]])
        var store: FileStore?
        let openSeconds = try time { store = try FileStore.open(directory: folder) }
        guard let store else { throw BenchError.failed("the store did not open") }
        var found: [Value] = []
        let querySeconds = try time { found = try blocking { try await store.query(entity: "items", query) } }
        blocking { await store.close() }
        guard found.count == 1, found.first?["id"] == .int(wanted) else {
            throw BenchError.failed("query by id \(wanted) found \(found.count) elements")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let bytes = files.reduce(0) { sum, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            return sum + ((attributes?[.size] as? Int) ?? 0)
        }
        return Measurement(
            count: n, seconds: openSeconds + querySeconds, unit: "elements",
            extra: [
                "fill ms": fill.fillSeconds * 1e3, "open ms": openSeconds * 1e3, "query-by-id ms": querySeconds * 1e3,
                "store megabytes": Double(bytes) / 1e6,
                "snapshot files": Double(files.filter { $0.hasPrefix("snapshot-") }.count),
            ])
    }

    /// Runs `source` in real time with the persistence middleware over a new file store, then
    /// checks that `expecting` elements were stored.
    ///
    /// - Returns: The seconds of the run (open and check are not timed).
    private static func runWithFileStore(_ source: String, expecting: Int) throws -> (seconds: Double, stored: Int) {
        let compiled = Frontend().compile(source: source, path: "bench.saga")
        guard let program = compiled.program else { throw BenchError.compile(compiled.renderedDiagnostics) }
        let folder = temporaryFolder("saves")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try FileStore.open(directory: folder)
        let persistence = ValuePersistence(store: store)
        let interpreter = Interpreter(
            program: program, options: .init(), middleware: [persistence.middleware], reducers: [persistence.reduce],
            output: NullOutput())
        persistence.scheduler = interpreter.asyncWork
        var status = RunStatus.success
        let seconds = blockingTime { status = await interpreter.run(input: nil) }
        let stored = try blocking { try await store.query(entity: "items", Query()).count }
        blocking { await store.close() }
        guard status == .success else { throw BenchError.failed("the program failed: \(status)") }
        guard stored == expecting else { throw BenchError.failed("stored \(stored) elements, expected \(expecting)") }
        return (seconds, stored)
    }

    private static func temporaryFolder(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sagabench-\(name)-\(UUID().uuidString)").path
    }

    /// Runs an async throwing `body` to completion from synchronous code.
    private static func blocking<T>(_ body: @escaping () async throws -> T) throws -> T {
        var result: Result<T, any Error>?
        _ = blockingTime {
            do { result = .success(try await body()) } catch { result = .failure(error) }
        }
        guard let result else { throw BenchError.failed("the async work did not finish") }
        return try result.get()
    }

    /// Runs an async `body` to completion from synchronous code.
    private static func blocking(_ body: @escaping () async -> Void) {
        _ = blockingTime(body)
    }
}
