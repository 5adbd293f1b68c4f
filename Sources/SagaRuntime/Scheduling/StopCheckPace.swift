import Dispatch

/// How many steps a task that does not wait takes between two looks for a stop asked for and at
/// the memory budget (see ``CodeSteps``).
///
/// Most steps take nanoseconds, and a look every ``most`` steps costs nothing. A step that copies
/// a large value can take milliseconds, though, and ``most`` of those would keep a stop (Ctrl-C)
/// waiting for minutes. So the steps between two looks follow the time they took: a quarter as
/// many after more than ``slow``, twice as many (up to ``most``) after less than ``fast``.
struct StopCheckPace {
    /// The most steps between two looks.
    static let most = 1 << 16
    /// A time between two looks after which the steps between them shrink: 10 ms.
    static let slow: UInt64 = 10_000_000
    /// A time between two looks after which the steps between them grow: 1 ms.
    static let fast: UInt64 = 1_000_000

    /// The steps until the next look.
    private(set) var steps = most
    /// When the last look was taken (nanoseconds of uptime), or 0 before the first.
    private var last: UInt64 = 0

    /// A look is taken at `now` (nanoseconds of uptime): the steps until the next one follow
    /// the time since the last.
    mutating func look(at now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        defer { last = now }
        guard last != 0 else { return }
        let elapsed = now &- last
        if elapsed > Self.slow {
            steps = max(1, steps / 4)
        } else if elapsed < Self.fast {
            steps = min(Self.most, steps * 2)
        }
    }
}
