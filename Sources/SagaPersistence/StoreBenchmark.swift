import SagaCore

/// Helpers for the benchmark target (not timed assertions): fill a file store, then time a
/// reopen.
///
/// ```swift
/// let report = try await StoreBenchmark.run(directory: "/tmp/bench-store", count: 1_000_000)
/// print(report)
/// ```
package enum StoreBenchmark {
    /// What one run measured.
    package struct Report: Sendable, CustomStringConvertible {
        /// The number of elements saved.
        package var elements: Int
        /// Seconds to save them all (concurrently, each acknowledged after its sync).
        package var fillSeconds: Double
        /// Seconds to open the store again (recovery: snapshot and log).
        package var reopenSeconds: Double
        /// Seconds for one query that scans every element.
        package var scanSeconds: Double

        /// One line per measure.
        package var description: String {
            """
            elements: \(elements)
            fill:     \(fillSeconds) s (\(Int(Double(elements) / max(fillSeconds, 1e-9))) saves/s)
            reopen:   \(reopenSeconds) s
            scan:     \(scanSeconds) s
            """
        }
    }

    /// Saves `count` small elements into a new store at `directory` from `concurrency`
    /// tasks, closes it, reopens it, and runs one scanning query.
    ///
    /// - Parameters:
    ///   - directory: The folder of the new store.
    ///   - count: How many elements to save.
    ///   - concurrency: How many tasks save at once.
    ///   - snapshotThreshold: The store's snapshot threshold (bytes of log).
    /// - Returns: The number of elements and the seconds the fill, the reopen and the scan took.
    /// - Throws: Any ``StoreError`` of the store.
    package static func run(
        directory: String, count: Int = 100_000, concurrency: Int = 64, snapshotThreshold: Int = 64 << 20
    ) async throws(StoreError) -> Report {
        let clock = ContinuousClock()
        let options = FileStore.Options(snapshotThreshold: snapshotThreshold)
        let store = try FileStore.open(directory: directory, options: options)
        let start = clock.now
        let failure: StoreError? = await withTaskGroup(of: StoreError?.self) { group in
            for worker in 0..<max(1, concurrency) {
                group.addTask {
                    var i = worker
                    while i < count {
                        do throws(StoreError) {
                            _ = try await store.save(entity: "items", element: element(i))
                        } catch {
                            return error
                        }
                        i += max(1, concurrency)
                    }
                    return nil
                }
            }
            for await result in group where result != nil { return result }
            return nil
        }
        let fill = clock.now - start
        await store.close()
        if let failure { throw failure }

        let reopenStart = clock.now
        let again = try FileStore.open(directory: directory, options: options)
        let reopen = clock.now - reopenStart
        let scanStart = clock.now
        _ = try await again.query(entity: "items", Query.parse(["where": ["n": [">=": 0]], "limit": 10]))
        let scan = clock.now - scanStart
        await again.close()
        return Report(
            elements: count, fillSeconds: seconds(fill), reopenSeconds: seconds(reopen), scanSeconds: seconds(scan))
    }

    /// A small element: an id, a name and a number.
    static func element(_ i: Int) -> Value {
        ["id": .int(i), "name": .string("item \(i)"), "n": .int(i % 1000)]
    }

    private static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
