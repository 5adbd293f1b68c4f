import SagaCore

/// Pending timers (`delay`s), ordered by due time, then by the order they were set.
struct TimerQueue {
    struct Entry {
        var due: Int
        var sequence: Int
        var task: SagaTask
        var token: Int
        /// What the `delay` gives when it fires.
        var value: Value
    }

    private var heap: [Entry] = []
    private var nextSequence = 0

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
