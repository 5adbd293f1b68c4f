import Foundation

/// The scheduler's clock, in milliseconds since the run started.
///
/// One protocol, two clocks: nothing else in the runtime knows which is in use.
protocol SchedulerClock: AnyObject {
    /// Milliseconds since the start.
    var now: Int { get }
    /// Whether the clock only moves when the scheduler moves it.
    var isVirtual: Bool { get }
    /// Moves a virtual clock forward to `time` (a real clock ignores this).
    func advance(to time: Int)
}

/// Virtual time: stands still until the scheduler moves it straight to the next timer.
final class VirtualClock: SchedulerClock {
    private(set) var now = 0
    var isVirtual: Bool { true }
    func advance(to time: Int) {
        if time > now { now = time }
    }
}

/// Real time, from a monotonic clock.
final class RealClock: SchedulerClock {
    private let start = DispatchTime.now().uptimeNanoseconds
    var now: Int { Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000) }
    var isVirtual: Bool { false }
    func advance(to time: Int) {}
}
