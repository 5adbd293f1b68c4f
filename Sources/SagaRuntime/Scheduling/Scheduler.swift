import SagaCore
import SagaStore

/// What runs next, and what waits: the run queues, the dispatch queue, and the tasks waiting
/// for an action, a channel's message or a timer, in the order the language runs them (see
/// “Tasks and the order of events” in Sagas/README.md).
///
/// The interpreter runs what ``next()`` hands it. What a step makes runnable is scheduled
/// with ``schedule(_:)-(SagaTask)`` and goes ahead of everything already waiting once the
/// step ends (``flushWakeups()``), as a nested call would.
final class Scheduler {
    // The queues are `RingQueue`s, objects only the scheduler holds: no copy-on-write check
    // per append and pop (see there). Constants: a queue in a variable would be retained and
    // released around each use.

    /// Work to do now, front first.
    let ready = RingQueue<Work>()
    /// Tasks that used up their steps before a yield (`--yield-after`): they go on once
    /// everything ready and every queued action has been processed.
    let yielded = RingQueue<Work>()
    /// Work caused by the current step; goes to the front of `ready`, in order, when the step
    /// ends.
    let wakeups = RingQueue<Work>()
    /// Actions waiting to be processed (see “The dispatch queue” in Sagas/README.md).
    let dispatchQueue = RingQueue<DispatchEntry>()
    /// The app's own actions that the store processed while a saga written in Swift was
    /// runnable or between two effects, oldest first: each reaches the takers once nothing
    /// else is runnable, as if it had been dispatched then, one at a time (as input lines are).
    let heldActions = RingQueue<Value>()
    /// Actions a middleware's work gave back together (a group commit's results), oldest
    /// first: each is dispatched once nothing else can run, one at a time, as the events they
    /// are (see “Events and time” in Sagas/README.md).
    let heldResults = RingQueue<Value>()
    /// Tasks blocked on `take` of the store's actions.
    @exclusivity(unchecked) var takers = TakerIndex()
    /// The action channels (`actionChannel`), each taking in the actions its pattern matches.
    @exclusivity(unchecked) var actionChannels: [Channel] = []
    /// Tasks blocked on a channel's `take`, for the END rule (stale entries are skipped).
    @exclusivity(unchecked) private(set) var channelWaiters: [(task: SagaTask, token: Int)] = []
    /// Pending `delay`s.
    @exclusivity(unchecked) var timers = TimerQueue()
    /// Counts waits, to order blocked tasks by when they began to wait.
    @exclusivity(unchecked) private var waitCounter = 0

    /// What ``next()`` hands the interpreter to do.
    enum Next {
        /// Ready work.
        case work(Work)
        /// The next entry of the dispatch queue.
        case dispatch(DispatchEntry)
        /// The next of ``heldActions``, to reach the takers.
        case heldAction(Value)
        /// Yielded work or a held result moved on (to the ready queue, or into the dispatch
        /// queue): a turn of its own.
        case movedOn
    }

    /// The next thing to do: ready work first, then the next dispatch entry, then the next held
    /// action, then yielded work, and once nothing else can run the next held result; `nil`
    /// when all are empty.
    @inline(__always)
    func next() -> Next? {
        if let work = ready.popFirst() { return .work(work) }
        if let entry = dispatchQueue.popFirst() { return .dispatch(entry) }
        if let action = heldActions.popFirst() { return .heldAction(action) }
        if let work = yielded.popFirst() {
            ready.append(work)
            return .movedOn
        }
        if let action = heldResults.popFirst() {
            enqueue(action)
            return .movedOn
        }
        return nil
    }

    /// Runs `task` once the current step ends, ahead of everything already waiting.
    func schedule(_ task: SagaTask) {
        wakeups.append(.run(task, task.token))
    }

    /// ``schedule(_:)-(SagaTask)`` of a task whose reference the caller hands over, at
    /// `token`.
    ///
    /// Not inlined: here the queue is a constant of the scheduler's, which the call needs no
    /// reference of its own to; inlined into the interpreter's code, it would take a retain
    /// and a release of the queue per task. The task is passed owned, and moved on.
    @inline(never)
    func schedule(handingOver task: consuming SagaTask, token: Int) {
        wakeups.append(.run(consume task, token))
    }

    /// Does `work` once the current step ends, in order, ahead of everything already waiting.
    func schedule(_ work: [Work]) {
        wakeups.append(contentsOf: work)
    }

    /// Runs `task` after everything ready and every queued action (a task that used up its
    /// steps before a yield).
    func scheduleLast(_ task: SagaTask) {
        yielded.append(.run(task, task.token))
    }

    /// Runs `task` before anything else (a saga written in Swift handed back unstepped).
    func scheduleFirst(_ task: SagaTask) {
        ready.prepend(.run(task, task.token))
    }

    /// Whether the current step has made work runnable.
    var stepMadeWork: Bool {
        @inline(__always) get { !wakeups.isEmpty }
    }

    /// Whether nothing is ready, made runnable, yielded or queued for dispatch.
    var isIdle: Bool {
        @inline(__always) get {
            ready.isEmpty && wakeups.isEmpty && dispatchQueue.isEmpty && yielded.isEmpty
        }
    }

    /// Puts the work caused by the last step at the front of the ready queue, in order.
    ///
    /// Inlined as far as the check that there is any: most steps make none.
    @inline(__always)
    func flushWakeups() {
        if !wakeups.isEmpty { flushSomeWakeups() }
    }

    /// ``flushWakeups()`` where there are some.
    @inline(never)
    private func flushSomeWakeups() {
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

    /// The place of a wait that begins now, after every wait before it.
    @inline(__always)
    func nextWaitSequence() -> Int {
        waitCounter &+= 1
        return waitCounter
    }

    /// Notes a task that has just blocked on a channel's `take`, for the END rule.
    func addChannelWaiter(_ task: SagaTask) {
        channelWaiters.append((task, task.token))
        if channelWaiters.count >= 1024, channelWaiters.count.nonzeroBitCount == 1 {
            channelWaiters.removeAll { $0.task.token != $0.token }
        }
    }

    /// Drops the timers at the front of the queue whose tasks no longer wait for them (a
    /// cancelled `delay`, a `race`'s lost one): the virtual clock moves only to a timer that
    /// still matters, and the run ends without waiting for the others.
    func dropStaleTimers() {
        while let timer = timers.first, !timer.isLive { _ = timers.pop() }
    }

    /// Takes every task blocked on a `take` of actions, or of an empty channel, out of the
    /// waits, in the order they began to wait (the END rule).
    func endTakes() -> [SagaTask] {
        var ended = takers.removeAll()
        for waiter in channelWaiters where waiter.task.token == waiter.token {
            if case .channel = waiter.task.wait { ended.append(waiter.task) }
        }
        channelWaiters.removeAll()
        ended.sort { $0.waitSequence < $1.waitSequence }
        return ended
    }

    /// Every task the scheduler holds: in its queues, blocked on a `take`, a channel's `take`
    /// or a timer, or putting an action not yet processed.
    var heldTasks: [SagaTask] {
        var tasks: [SagaTask] = []
        for queue in [ready, yielded, wakeups] {
            for work in queue {
                switch work {
                case .run(let task, _), .cancelChildren(let task): tasks.append(task)
                case .subscribe: break
                }
            }
        }
        tasks += takers.tasks + channelWaiters.map(\.task) + timers.tasks
        for entry in dispatchQueue { if let putter = entry.putter { tasks.append(putter) } }
        return tasks
    }

    /// Lets go of everything it holds (once the run is over).
    func removeAll() {
        ready.removeAll()
        yielded.removeAll()
        wakeups.removeAll()
        takers = TakerIndex()
        channelWaiters = []
        timers = TimerQueue()
        dispatchQueue.removeAll()
        heldResults.removeAll()
        actionChannels = []
    }
}
