import Foundation

/// One benchmark: what it runs, and how to express its result.
struct Workload: Sendable {
    var name: String
    var summary: String
    /// The default size.
    var defaultCount: Int
    /// Runs the workload at `count`; returns the measurement.
    var run: @Sendable (Int) throws -> Measurement
}

/// What one run measured.
struct Measurement {
    var count: Int
    var seconds: Double
    /// What `count` counts ("actions", "calls", "bytes").
    var unit: String
    /// Extra figures (bytes per task, say).
    var extra: [String: Double] = [:]

    var perSecond: Double { seconds > 0 ? Double(count) / seconds : 0 }
}

/// Wall-clock time of `body` in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// The resident set size of this process, in bytes (Linux).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Wall-clock time of an async `body`, run to completion from synchronous code.
func blockingTime(_ body: @escaping () async -> Void) -> Double {
    let box = UncheckedBox(body)
    let done = DispatchSemaphore(value: 0)
    let start = ContinuousClock.now
    Task.detached {
        await box.value()
        done.signal()
    }
    done.wait()
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// Carries a non-Sendable value into a task; the benchmark waits for that task, so only one
/// side uses it at a time.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
