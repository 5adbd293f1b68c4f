import SagaCore
import SagaLanguage
import SagaStore

extension Interpreter {
    /// Runs everything runnable, native sagas included: see ``runUntilIdle()``.
    func drain(isolation: isolated (any Actor)? = #isolation) async {
        while let native = runUntilIdle() {
            await step(native)
            scheduler.flushWakeups()
        }
    }

    /// Runs everything runnable, in the order ``Scheduler/next()`` hands it out, until nothing
    /// is left (see “Tasks and the order of events” in Sagas/README.md).
    ///
    /// A saga written in Swift cannot be stepped from here (it must be awaited), so when one
    /// is next, it is returned to the async loop to step.
    func runUntilIdle() -> SagaTask? {
        inTurn = true
        defer { inTurn = false }
        scheduler.flushWakeups()
        while true {
            if _slowPath(budget.checksEachTurn), !withinRunLimits() { return nil }
            guard let next = scheduler.next() else {
                nativePending = false
                return nil
            }
            switch consume next {
            case .work(let work):
                if case .run(let task, let token) = work, task.native != nil {
                    if task.token == token, !task.isDone {
                        nativePending = true
                        return task
                    }
                    continue
                }
                perform(work)
            case .dispatch(let entry):
                process(entry)
            case .heldAction(let action):
                actionReachesTakers(action)
            case .movedOn:
                continue
            }
            scheduler.flushWakeups()
        }
    }

    /// Counts a turn against the run's limits (``RunBudget/checksEachTurn``): whether it may go on.
    ///
    /// Once it may not, the run is stopped: nothing runs after. A stop asked for (a signal,
    /// ``stop()``) ends the turn too, for the run loop to cancel the roots: a run with limits
    /// (any run of `sagarun`) stops so however much work a saga makes for itself.
    func withinRunLimits() -> Bool {
        if budget.isSpent { return false }
        if stopRequest.isAsked, !rootsStopped { return false }
        guard let overrun = budget.countTurn(reducerSteps: vm.stepsTaken) else { return true }
        overran(overrun)
        return false
    }

    /// Stops the run that has passed a limit of its budget.
    ///
    /// Nothing runs after, and every root saga counts as failed. Only the first overrun is
    /// reported.
    func overran(_ overrun: RunBudget.Overrun) {
        guard !budget.isSpent else { return }
        budget.isSpent = true
        failures += 1
        switch overrun {
        case .steps(let limit):
            output.error(
                "error: the run took more than \(limit) step\(limit == 1 ? "" : "s"); it was stopped; "
                    + "raise the limit with --max-run-steps")
        case .turnsWithoutInput(let limit):
            output.error(
                "error: the run took \(limit) turns with no input, host answer or real-time wait "
                    + "(does it feed itself for ever?); it was stopped; raise the limit with --max-turns-without-input")
        case .memory(let limit):
            output.error(
                "error: the run held more than \(limit >> 20) MiB of memory; it was stopped; "
                    + "raise the limit with --max-memory")
        }
        stop()
    }

    /// Stops the run if it holds more than its memory budget (see ``overran(_:)``).
    ///
    /// - Returns: whether it did.
    func stopsOverMemory() -> Bool {
        guard let watch = budget.memoryWatch, watch.isExceeded else { return false }
        overran(.memory(limit: watch.limit))
        return true
    }

    /// The run heard from outside (an input line, a host call's answer, an event channel's
    /// message, a real wait): the count of turns on its own starts again.
    @inline(__always)
    func heardFromOutside() { budget.heardFromOutside() }

    /// How many more steps a task may take in its turn before the run as a whole has taken
    /// ``Options/maxRunSteps``: `Int.max` without a limit.
    var runStepsLeft: Int { budget.stepsLeft(reducerSteps: vm.stepsTaken) }

    /// An app dispatched an action itself.
    ///
    /// Over a store that calls ``takeOutsideTurn()`` when idle, the tasks it woke run there;
    /// otherwise the run loop is woken to run them.
    private func outsideActionArrived() {
        if !takesOutsideTurns { hostCalls.inbox.signal() }
    }

    /// Runs what an app's own dispatch made runnable, synchronously, once the store is idle:
    /// unless the interpreter is itself running (that dispatch was its own), or not running at
    /// all.
    ///
    /// A saga written in Swift met on the way waits for the async loop.
    ///
    /// The run loop is woken only when it must act: for such a saga, or for a timer due before
    /// the one it sleeps until. Waking it for every outside action would cost a continuation
    /// and a trip through the loop per action, for nothing to do.
    /// Host calls started here wake it when they finish, as any host call does.
    func takeOutsideTurn() {
        guard started, !inTurn, !nativePending, !stopRequested else { return }
        heardFromOutside()
        let due = scheduler.timers.nextDue
        if let native = runUntilIdle() {
            scheduler.scheduleFirst(native)
            hostCalls.inbox.signal()
            return
        }
        if let next = scheduler.timers.nextDue, due.map({ next < $0 }) ?? true { hostCalls.inbox.signal() }
    }

    private func perform(_ work: Work) {
        switch work {
        case .run(let task, let token):
            guard task.token == token, !task.isDone else { return }
            execute(task)
        case .cancelChildren(let task):
            for child in task.children {
                scheduler.schedule(taskTree.cancelWork(child))
            }
        case .subscribe(let channel):
            channel.waitSequence = scheduler.nextWaitSequence()
        }
    }

    /// Makes a blocked task runnable with `resumption`; it runs after the current step, ahead
    /// of everything already waiting (as a nested call would).
    func wake(_ task: SagaTask, _ resumption: Resumption) {
        wake(handingOver: copy task, resumption)
    }

    /// ``wake(_:_:)`` of a task whose reference the caller hands over: it moves into the
    /// wake-up. (A reference of the wake-up's own, with the caller's then dropped, is an
    /// atomic retain and release more.)
    @inline(__always)
    private func wake(handingOver task: consuming SagaTask, _ resumption: consuming Resumption) {
        if task.traceOpen { runTrace?.unblock(task) }
        task.token &+= 1
        task.wait = .none
        task.resumption = resumption
        let token = task.token
        scheduler.schedule(handingOver: task, token: token)
    }

    /// Blocks a task on `wait`; wake-ups from before are now stale.
    @inline(__always)
    func block(_ task: SagaTask, on wait: Wait) {
        task.token &+= 1
        task.wait = wait
        task.waitSequence = scheduler.nextWaitSequence()
        if let runTrace { runTrace.block(task, wait) }
    }

    /// Makes a task that has just blocked on `take` wait for a matching action; once END has
    /// come, it ends at once instead, as if by `return`, before the task that started it goes
    /// on (END is permanent, as in redux-saga: no action will come).
    ///
    /// A taker of one exact type whose condition compares a path of the action with a value
    /// fixed while it waits (see ``TakerIndex/keyedSides(of:)``) is kept under that value.
    @inline(__always)
    func addTaker(_ taker: consuming Taker) {
        if endReached {
            wake(taker.takeTask(), .unwind(.end))
            return
        }
        if let keyed = taker.condition?.keyed, case .exact(let type) = taker.pattern,
            let value = try? self.value(of: keyed.fixed, it: .null, env: taker.task.env),
            value == value
        {
            scheduler.takers.add(taker, type: type, path: keyed.path, pathCode: keyed.pathCode, value: value)
            return
        }
        scheduler.takers.add(taker)
    }

    /// An input line's action, in virtual time, where the run loop has just run everything
    /// runnable: processed now, as the loop would process it next, without a trip through the
    /// dispatch queue.
    ///
    /// Queued if anything is still waiting. Counted as a step toward the run's step limit, as
    /// the loop counts each dispatch it takes.
    ///
    /// The line is taken out of `pending`, and its action moved out of the line, here: in the
    /// async run loop, taking the action out of its line would copy it (a retain and a release
    /// a line).
    @inline(never)
    func dispatchInputLine(taking pending: inout InputLine?) {
        heardFromOutside()
        if _slowPath(pending?.isForChannel == true) {
            if let event = pending.take()?.channelEvent { deliverInput(event.message, toChannel: event.name) }
            return
        }
        guard let line = pending.take() else { return }
        let action = line.takeAction()
        guard scheduler.isIdle, options.shortCuts else {
            scheduler.enqueue(action)
            return
        }
        guard withinLimitsAtOnce() else { return }
        inTurn = true
        defer { inTurn = false }
        // Not through `process(_:)`, which would make and destroy an entry with no putter.
        if let failure = storeProcesses(action) { reportUnputDispatchFailure(action, failure) }
    }

    /// Whether a `put` may have its action processed on the spot.
    ///
    /// That is when the dispatch queue would process it next anyway: when no action is queued,
    /// nothing is waiting in ``Scheduler/wakeups`` (work the putter caused runs first; an effect that
    /// wakes a task makes its own task yield, so this holds at every `put`, and the check
    /// keeps it so), no task that forked a child taking its first turn at once waits for its
    /// own turn (see ``runFirstTurn(parentWaits:_:)``), and the only work ready is turns that change nothing
    /// another task could see, such as a task's going back to its `take` (which the run loop
    /// would run first; see ``isQuietOrStale(_:)``).
    var canDispatchAtOnce: Bool {
        @inline(__always) get {
            !scheduler.stepMadeWork && scheduler.dispatchQueue.isEmpty && options.shortCuts && parentsWaiting == 0
                && (scheduler.ready.isEmpty || scheduler.ready.allSatisfy(isQuietOrStale))
        }
    }

    /// Whether `work` is stale, or the turn of a task that yielded to the body it forked and
    /// then only takes (see ``SagaTask/nextTurnIsQuiet``), which changes nothing another task
    /// could see: a `put` may be processed once it is done (see ``canDispatchAtOnce``).
    private func isQuietOrStale(_ work: Work) -> Bool {
        guard case .run(let task, let token) = work else { return false }
        guard task.token == token, !task.isDone else { return true }
        guard case .start = task.resumption else { return false }
        return task.nextTurnIsQuiet
    }

    /// The next turn of the task whose body's `put` is processed on the spot
    /// (``pendingRetake``), which the run loop would take before the action: the task goes back
    /// to its `take` (``pendingTake``, see ``continueToTake(_:_:)``).
    ///
    /// - Returns: `false` if the run's limits stop the run there.
    @inline(__always)
    private func takePendingRetake() -> Bool {
        guard let pending = pendingRetake else { return true }
        pendingRetake = nil
        guard withinLimitsAtOnce() else { return false }
        return pending._withUnsafeGuaranteedRef { task in
            guard task.token == pendingRetakeToken, !task.isDone else { return true }
            continueToTake(task, pendingTake)
            return true
        }
    }

    /// Processes a `put`'s action on the spot (see ``canDispatchAtOnce``), as the run loop
    /// would have right after the putter blocked.
    ///
    /// If the action woke no task, the putter goes on without blocking: in the run loop's
    /// order nothing else would have run before it. Otherwise, or if the dispatch failed, the
    /// putter ends up as ``process(_:)`` leaves a putter: blocked on the `put` and woken after
    /// the tasks the action woke.
    ///
    /// Blocking, queueing and resuming would cost a task run per `put`, and blocking and
    /// waking the putter only to take the wake-up back would cost more than this.
    func dispatchAtOnce(_ action: consuming Value, putter: SagaTask) -> EffectResult {
        // The put's moment in a trace, before the action and what it wakes: an instant if the
        // putter goes on, the start of its slice if it waits.
        let stamp = runTrace?.stamp()
        let failure = processAtOnce(action)
        // A run stopped meanwhile stops the putter here: it would otherwise go on putting.
        guard failure != nil || scheduler.stepMadeWork || budget.isSpent else {
            if let stamp { runTrace?.putAtOnce(putter, stamp: stamp) }
            return .dispatched(action)
        }
        runTrace?.putStamp = stamp
        block(putter, on: .put)
        wakePutter(putter, failure, action)
        return .suspended
    }

    /// What ``dispatchAtOnce(_:putter:)`` does before it looks at the putter: the ready work
    /// (watchers' second turns, which the run loop would run first), then the store's
    /// processing of the action.
    ///
    /// The error if it failed.
    ///
    /// Each piece of work and the dispatch count as a step toward the run's step limit, as the
    /// run loop's turns do; once past it, the run is stopped and nothing more is done here.
    @inline(__always)
    func processAtOnce(_ action: Value) -> SagaError? {
        if pendingRetake != nil, !takePendingRetake() { return nil }
        while let work = scheduler.ready.popFirst() {
            guard withinLimitsAtOnce() else { return nil }
            perform(work)
        }
        guard withinLimitsAtOnce() else { return nil }
        return storeProcesses(action)
    }

    /// Counts a turn taken on the spot (a dispatch, or the work run before it) as a step
    /// toward ``Options/maxRunSteps``, as the run loop counts each of its turns: whether the
    /// run may go on. (The turns on its own count the actions dispatched: see
    /// ``notesEachAction``.)
    ///
    /// Once it may not, the run is stopped (see ``RunBudget/isSpent``).
    @inline(__always)
    func withinLimitsAtOnce() -> Bool {
        if budget.isSpent { return false }
        guard let overrun = budget.countStep(reducerSteps: vm.stepsTaken) else { return true }
        overran(overrun)
        return false
    }

    /// Processes one dispatch entry: middleware and reducers (in the store), then the
    /// takers, then the putter.
    private func process(_ entry: DispatchEntry) {
        if let channel = entry.channel { return deliver(entry, to: channel) }
        let failure = storeProcesses(entry.action)
        if let putter = entry.putter, putter.token == entry.putterToken, case .put = putter.wait {
            wakePutter(putter, failure, entry.action)
        } else if let failure {
            reportUnputDispatchFailure(entry.action, failure)
        }
    }

    /// Processes a channel's entry: its message goes to the channel's oldest taker or into its
    /// buffer, then the putter goes on (with `null`, or the error of a full buffer).
    private func deliver(_ entry: DispatchEntry, to channel: Channel) {
        let delivered = channelPut(channel, entry.action)
        guard let putter = entry.putter, putter.token == entry.putterToken, case .put = putter.wait else { return }
        wakePutter(putter, delivered ? nil : channel.overflowError(maxBuffer: options.maxBuffer), .null)
    }

    /// A dispatch that failed with no saga's `put` to fail for it: reported on its own.
    private func reportUnputDispatchFailure(_ action: Value, _ failure: SagaError) {
        output.error("error: cannot dispatch \(action.canonicalJSON): \(failure.message)")
    }

    /// Has the store process one of the interpreter's own actions (middleware, reducers, then
    /// the takers): the error if it failed.
    private func storeProcesses(_ action: Value) -> SagaError? {
        if _slowPath(options.maxRunSteps != nil) { return storeProcessesCountingSteps(action) }
        processingOwnEntry = true
        defer { processingOwnEntry = false }
        do throws(SagaError) {
            try binding.process(action)
            return nil
        } catch {
            return error
        }
    }

    /// ``storeProcesses(_:)`` in a run with a limit of steps, which a reducer's loop takes from
    /// too: one that uses up the steps the run has left stops the run.
    @inline(never)
    private func storeProcessesCountingSteps(_ action: Value) -> SagaError? {
        processingOwnEntry = true
        defer { processingOwnEntry = false }
        vm.runStepsLeft = runStepsLeft
        vm.stepsAtAction = vm.stepsTaken
        defer {
            if vm.ranOutOfRunSteps, let limit = options.maxRunSteps {
                vm.ranOutOfRunSteps = false
                overran(.steps(limit))
            }
        }
        do throws(SagaError) {
            try binding.process(action)
            return nil
        } catch {
            return error
        }
    }

    /// Wakes a task blocked on `put` once its action (or channel message) has been processed:
    /// with `value` (the action, or `null` for a channel), or with the error the dispatch
    /// failed with, reported at the `put`.
    func wakePutter(_ putter: SagaTask, _ failure: SagaError?, _ value: Value) {
        if let failure {
            let at = putter.waitingStatementLocation ?? putter.location
            wake(putter, .error(Failure(error: failure, trace: trace(putter, at: at))))
        } else {
            wake(putter, .value(value))
        }
    }

    /// Called by the saga middleware once the reducers have run: feeds action channels and
    /// wakes the tasks blocked on a matching `take`, in the order they began to wait.
    ///
    /// Tasks that begin to wait from now on do not see this action.
    func actionReduced(_ action: Value) {
        if !processingOwnEntry {
            if nativePending {
                scheduler.heldActions.append(action)
                return
            }
            outsideActionArrived()
        }
        actionReachesTakers(action)
    }

    /// Feeds the action channels and wakes the takers of a processed action.
    @inline(__always)
    private func actionReachesTakers(_ action: Value) {
        // No type to read when nothing waits for an action: a saga's `put` often reaches no
        // taker, its own watcher being between its turns.
        if scheduler.actionChannels.isEmpty, scheduler.takers.isEmpty { return }
        let type = ActionPattern.type(of: action)
        if _slowPath(!scheduler.actionChannels.isEmpty),
            scheduler.actionChannels.contains(where: { $0.pattern?.matches(actionType: type) == true })
        {
            actionReachesChannelsAndTakers(action, type: type)
            return
        }
        wakeTakers(of: action, type: type)
    }

    /// An action that action channels take, with the takers it wakes, each served in the
    /// order it began to wait.
    ///
    /// An action channel waits from when it was made, and again from its turn after each
    /// action it takes in (as redux-saga's action channel subscribes anew each time, after the
    /// subscribers before it have run). The task waiting on a channel resumes in the channel's
    /// place.
    @inline(never)
    private func actionReachesChannelsAndTakers(_ action: Value, type: String?) {
        var channels = scheduler.actionChannels.filter { $0.pattern?.matches(actionType: type) == true }
        channels.sort { $0.waitSequence < $1.waitSequence }
        // The takers' wake-ups, taken back off the queue to be put among the channels'.
        let start = scheduler.wakeups.count
        if !scheduler.takers.isEmpty { wakeTakers(of: action, type: type) }
        var woken: [Work] = []
        while scheduler.wakeups.count > start, let work = scheduler.wakeups.popLast() { woken.append(work) }
        woken.reverse()
        var next = 0
        for channel in channels {
            while next < woken.count, case .run(let task, _) = woken[next], task.waitSequence < channel.waitSequence {
                scheduler.wakeups.append(woken[next])
                next += 1
            }
            scheduler.wakeups.append(.subscribe(channel))
            if !channelPut(channel, action), !channel.reportedOverflow {
                // No saga put this action, so no saga can be failed for it: say so, once.
                channel.reportedOverflow = true
                failures += 1
                let place = channel.madeAt.map { " made at \(describe($0))" } ?? ""
                let what = type.map { "'\($0)'" } ?? "an action"
                output.error(
                    "error: \(channel.overflowError(maxBuffer: options.maxBuffer).message) (the actionChannel\(place)): \(what) and any more "
                        + "it queues are dropped")
            }
        }
        while next < woken.count {
            scheduler.wakeups.append(woken[next])
            next += 1
        }
    }

    /// Wakes the takers of a processed action, in the order they began to wait.
    @inline(__always)
    private func wakeTakers(of action: Value, type: String?) {
        guard !scheduler.takers.isEmpty else { return }
        if scheduler.takers.hasKeyed {
            actionReachesTakersWithKeys(action, type: type)
            return
        }
        // One taker without a condition, the usual case (a saga's `take`, a watcher between
        // turns): if it matches, it leaves the list, and its task goes to the run queue
        // without being copied on the way, which saves two retains and two releases an
        // action.
        if scheduler.takers.plain.count == 1, scheduler.takers.plain[0].isUnconditional {
            guard scheduler.takers.plain[0].isLive else {
                scheduler.takers.plain.removeLast()
                return
            }
            if scheduler.takers.plain[0].pattern.matches(actionType: type) {
                wake(handingOver: scheduler.takers.plain.removeLast().takeTask(), .value(action))
            }
            return
        }
        // In place: a taker that stays is moved down over the ones that left, keeping their
        // order; the ones that match are woken in the order they began to wait. Nothing here
        // adds a taker (a woken task runs later), so the list can be edited as it is walked.
        // Rebuilding the list would copy every taker that stayed (a retain and a release of
        // each of its parts, per action).
        var kept = 0
        for i in scheduler.takers.plain.indices {
            guard scheduler.takers.plain[i].isLive else { continue }
            // Read in place: passing the taker on would copy it (a retain and a release of each
            // of its parts), which only a `where` condition needs.
            if scheduler.takers.plain[i].pattern.matches(actionType: type) {
                if scheduler.takers.plain[i].isUnconditional {
                    wake(scheduler.takers.plain[i].task, .value(action))
                    continue
                }
                if let resumption = conditionVerdict(scheduler.takers.plain[i], action) {
                    wake(scheduler.takers.plain[i].task, resumption)
                    continue
                }
            }
            if kept != i { scheduler.takers.plain.swapAt(kept, i) }
            kept &+= 1
        }
        // Popped one by one: `removeLast(_:)` and `removeAll(keepingCapacity:)` go through the
        // generic `replaceSubrange`, dearer than the one or two takers an action usually meets.
        while scheduler.takers.plain.count > kept { scheduler.takers.plain.removeLast() }
    }

    /// ``actionReachesTakers(_:)`` where some takers are kept under a value (see
    /// ``TakerIndex``): what the action does to each list it meets is gathered, then the tasks
    /// are woken in the order they began to wait.
    @inline(never)
    private func actionReachesTakersWithKeys(_ action: Value, type: String?) {
        var woken: [(sequence: Int, task: SagaTask, resumption: Resumption)] = []
        let lists = scheduler.takers.meetAll(
            type: type, pathValue: { try? value(of: $0, it: action, env: []) },
            verdict: { taker in
                guard taker.pattern.matches(actionType: type) else { return nil }
                return conditionVerdict(taker, action)
            },
            woken: { taker, resumption in woken.append((taker.task.waitSequence, taker.task, resumption)) })
        if lists > 1 { woken.sort { $0.sequence < $1.sequence } }
        for entry in woken { wake(entry.task, entry.resumption) }
    }

    /// What an action does to a taker with a `where` condition, `it` bound to the action: it
    /// wakes the taker if the condition holds, fails it if the condition fails to evaluate,
    /// and nothing otherwise.
    private func conditionVerdict(_ taker: borrowing Taker, _ action: Value) -> Resumption? {
        guard let condition = taker.condition else { return .value(action) }
        do {
            return try Evaluator.truth(try value(of: condition.code, it: action, env: taker.task.env))
                ? .value(action) : nil
        } catch {
            return .error(Failure(error: error, trace: trace(taker.task, at: condition.location)))
        }
    }

    /// The value of a taker's expression's code (see ``Code/init(expression:slotCount:)``):
    /// `it` is `action`, and the variables are `env`, a waiting task's, which the code only
    /// reads.
    func value(of code: Code, it action: Value, env: [Value]) throws(SagaError) -> Value {
        let room = expressionRoom.room(for: code.roomCount)
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        return try env.withUnsafeBufferPointer { (variables) throws(SagaError) -> Value in
            // Read only: the code computes an expression, which writes temporaries alone.
            let slots = variables.baseAddress.map { UnsafeMutablePointer(mutating: $0) } ?? room
            do throws(SagaError) {
                return try vm.value(of: code, it: action, slots: slots, room: room, ev)
            } catch {
                expressionRoom.empty(code.roomCount)
                throw error
            }
        }
    }

    /// Puts a message into a channel: to its oldest taker, or into its buffer.
    ///
    /// - Returns: `false` if the buffer is at ``Options/maxBuffer`` and the channel's own
    ///   buffer would keep the message (an unbounded buffer, or one sized above the limit), or
    ///   if it is a full `fixed` buffer: the message was not put.
    @discardableResult
    func channelPut(_ channel: Channel, _ message: Value) -> Bool {
        // A put to a closed channel does nothing, as in redux-saga.
        if channel.isClosed { return true }
        if let taker = channel.popTaker() {
            wake(taker, .value(message))
            return true
        }
        if channel.messages.count >= options.maxBuffer, (channel.limit ?? Int.max) > options.maxBuffer {
            return false
        }
        if channel.kind == .fixed, channel.isFull { return false }
        channel.buffer(message)
        return true
    }
}
