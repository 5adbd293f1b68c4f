import Foundation
import Synchronization

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
    /// The process's CPU time in the measured region, when the workload's seconds are one
    /// region's (see ``TimedRegion``).
    var cpuSeconds: Double?
    /// `count` per CPU second.
    var perCPUSecond: Double? { cpuSeconds.flatMap { $0 > 0 ? Double(count) / $0 : nil } }
}

/// Wall-clock time of `body` in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let cpuStart = processCPUSeconds()
    let start = ContinuousClock.now
    try body()
    let seconds = secondsSince(start)
    TimedRegion.record(seconds: seconds, cpuSeconds: processCPUSeconds() - cpuStart)
    return seconds
}

/// The wall-clock seconds from `start` to now.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// The wall and CPU time of the last region ``time(_:)`` or ``blockingTime(_:)`` measured.
///
/// The CPU time (user and system, every thread of the process) is less disturbed than wall
/// time by other work on a shared machine; a workload's result carries it when its seconds are
/// that region's (see `main.swift`).
enum TimedRegion {
    private static let last = Mutex<(seconds: Double, cpuSeconds: Double)?>(nil)

    static func record(seconds: Double, cpuSeconds: Double) {
        last.withLock { $0 = (seconds, cpuSeconds) }
    }

    /// The CPU seconds of the last region, if it took `seconds` of wall time.
    static func cpuSeconds(ifWall seconds: Double) -> Double? {
        last.withLock { region in region.flatMap { $0.seconds == seconds ? $0.cpuSeconds : nil } }
    }
}

/// The CPU time this process has used so far (user and system, every thread), in seconds.
func processCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
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
    let cpuStart = processCPUSeconds()
    let start = ContinuousClock.now
    Task.detached {
        await box.value()
        done.signal()
    }
    done.wait()
    let seconds = secondsSince(start)
    TimedRegion.record(seconds: seconds, cpuSeconds: processCPUSeconds() - cpuStart)
    return seconds
}

/// Carries a non-Sendable value into a task; the benchmark waits for that task, so only one
/// side uses it at a time.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
