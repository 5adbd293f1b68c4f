import SagaCore
import SagaStore

/// What runs next, and what waits for an action or a time: the run's queues (see “Tasks and
/// the order of events” in Sagas/README.md), its takers and its timers.
///
/// The interpreter holds one and takes work from it in ``Interpreter/runUntilIdle()``: ready
/// work first, then the next dispatch entry, then the next held action of the app's, then
/// yielded tasks, and once nothing else can run the next held result of a middleware's.
///
/// A struct held in the interpreter, whose queues are `RingQueue`s only it holds: reaching one
/// is a load from the interpreter, with no copy-on-write check per append and pop (see there),
/// and a queue in a variable would be retained and released around each use.
struct Scheduler {
    /// Work to do now, front first.
    let ready = RingQueue<Work>()
    /// Tasks that used up ``Interpreter/Options/yieldAfterSteps``: they go on once everything
    /// ready and every queued action has been processed.
    let yielded = RingQueue<Work>()
    /// Work caused by the current step; goes to the front of ``ready``, in order, when the
    /// step ends (see ``flushWakeups()``).
    let wakeups = RingQueue<Work>()
    /// Actions waiting to be processed (see “The dispatch queue” in Sagas/README.md).
    let dispatchQueue = RingQueue<DispatchEntry>()
    /// The app's own actions that the store processed while a saga written in Swift was
    /// pending (see ``Interpreter/nativePending``), oldest first: each reaches the takers once
    /// nothing else is runnable, as if it had been dispatched then, one at a time (as input
    /// lines are).
    let heldActions = RingQueue<Value>()
    /// Actions a middleware's work gave back together (a group commit's results), oldest
    /// first: each is dispatched once nothing else can run, one at a time, as the events they
    /// are (see “Events and time” in Sagas/README.md).
    let heldResults = RingQueue<Value>()
    /// Tasks blocked on `take` of the store's actions.
    var takers = TakerIndex()
    /// The channels of `actionChannel` effects, which take the store's actions too.
    var actionChannels: [Channel] = []
    /// Tasks blocked on a channel `take`, for the END rule (stale entries are skipped).
    var channelWaiters: [(task: SagaTask, token: Int)] = []
    /// `delay`s and timed input, by when they are due.
    var timers = TimerQueue()
    /// Counts waits, to order blocked tasks by when they began to wait.
    var waitCounter = 0

    /// Puts the work caused by the last step at the front of the ready queue, in order.
    func flushWakeups() {
        if ready.isEmpty {
            // Nothing else is ready (an action woke many takers, say): the wake-ups become
            // the ready queue as they are, with no copy, and the old queue's storage is
            // reused for the next step's wake-ups.
            ready.swapContents(with: wakeups)
            return
        }
        // Popping from the back prepends in reverse, which keeps their order.
        while let work = wakeups.popLast() { ready.prepend(work) }
    }

    /// Adds an action to the dispatch queue (see “The dispatch queue” in Sagas/README.md).
    ///
    /// A saga's `put` passes itself, and resumes once the action has been processed.
    func enqueue(_ action: consuming Value, putter: SagaTask? = nil, channel: Channel? = nil) {
        dispatchQueue.append(
            DispatchEntry(action: action, putter: putter, putterToken: putter?.token ?? 0, channel: channel))
    }

    /// The place of a wait that begins now, in the order of all waits.
    @inline(__always)
    mutating func nextWait() -> Int {
        waitCounter &+= 1
        return waitCounter
    }
}
