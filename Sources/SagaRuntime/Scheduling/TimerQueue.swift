import SagaCore

/// Pending timers (`delay`s), ordered by due time, then by the order they were set.
///
/// A timer whose task stopped waiting for it (cancelled, or woken by another effect of a
/// `race`) stays until it is due, or until a sweep drops it: once the queue has doubled since
/// the last sweep, so that a run cancelling delays holds no more than twice its live timers.
struct TimerQueue {
    struct Entry {
        var due: Int
        var sequence: Int
        var task: SagaTask
        var token: Int
        /// What the `delay` gives when it fires.
        var value: Value

        /// Whether its task still waits for it.
        var isLive: Bool {
            guard task.token == token, case .timer(let waited) = task.wait else { return false }
            return waited == sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence = 0
    /// The count at which the timers no task waits for are swept.
    private var sweepAt = 1024

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    /// The tasks waiting on a timer.
    var tasks: [SagaTask] { heap.map(\.task) }

    /// The earliest due time, if any.
    var nextDue: Int? { heap.first?.due }

    /// The earliest timer, if any.
    var first: Entry? { heap.first }

    /// Adds a timer; returns its sequence number.
    mutating func add(due: Int, task: SagaTask, token: Int, value: Value = .bool(true)) -> Int {
        // Before the new timer, whose task does not wait for it yet.
        if heap.count >= sweepAt { sweep() }
        let seq = nextSequence
        nextSequence += 1
        heap.append(Entry(due: due, sequence: seq, task: task, token: token, value: value))
        siftUp(heap.count - 1)
        return seq
    }

    /// Removes and returns the earliest timer.
    mutating func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        return top
    }

    /// Drops the timers no task waits for, and orders the rest again.
    @inline(never)
    private mutating func sweep() {
        heap.removeAll { !$0.isLive }
        for i in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
        sweepAt = Swift.max(1024, heap.count * 2)
    }

    private static func before(_ a: Entry, _ b: Entry) -> Bool {
        a.due != b.due ? a.due < b.due : a.sequence < b.sequence
    }

    private mutating func siftUp(_ index: Int) {
        var i = index
        while i > 0 {
            let parent = (i - 1) / 2
            if TimerQueue.before(heap[i], heap[parent]) {
                heap.swapAt(i, parent)
                i = parent
            } else {
                return
            }
        }
    }

    private mutating func siftDown(_ index: Int) {
        var i = index
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var best = i
            if l < heap.count, TimerQueue.before(heap[l], heap[best]) { best = l }
            if r < heap.count, TimerQueue.before(heap[r], heap[best]) { best = r }
            if best == i { return }
            heap.swapAt(i, best)
            i = best
        }
    }
}
