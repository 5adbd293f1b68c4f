import Foundation
import SagaCore
import SagaStore

/// How a run ended.
public enum RunStatus: Equatable, Sendable {
    /// Every root saga ended without an uncaught error.
    case success
    /// A root saga or a spawned task failed (exit code 1).
    case sagaFailed
    /// An input line was malformed (exit code 65).
    case malformedInput(String)
}

extension Interpreter {
    /// Runs the program to its end: starts the root sagas, feeds the input, and applies the
    /// END rule when nothing else can happen (see “END” in Sagas/README.md).
    ///
    /// - Parameters:
    ///   - input: outside actions, or `nil` for none.
    ///   - isolation: the actor the sagas run on: by default the caller's.
    /// - Returns: how the run ended.
    ///
    /// Over an app's store (``SagaStoreBinding/acceptsOutsideActions``), it runs until
    /// ``stop()``, or until the task that awaits it is cancelled, which stops it the same way
    /// (`.task { await interpreter.run() }` in SwiftUI stops the sagas with the view). It runs
    /// in the caller's isolation: call it from the actor that owns the store
    /// (the main actor, for a UI store), and the sagas run there too. To go on at once while
    /// the sagas run, use ``start(isolation:)``.
    public func run(input: InputSource? = nil, isolation: isolated (any Actor)? = #isolation) async -> RunStatus {
        guard begin(on: isolation) else { return .sagaFailed }
        return await finish(input: input)
    }

    /// Starts the program (over an app's store, or its own) and returns at once, with the
    /// task that runs it: the store's actions reach the sagas from the moment this returns,
    /// so an action dispatched on the next line is seen.
    ///
    /// Called on an actor (the store's, such as the main actor), which the sagas run on.
    ///
    /// ```swift
    /// let running = interpreter.start()      // on the store's actor
    /// store.dispatch(.load(id: 1))           // the sagas see it
    /// interpreter.stop()
    /// let status = await running.value
    /// ```
    ///
    /// The root sagas take their first steps before this returns (the scripted ones; one
    /// written in Swift takes its own on the task, and the store's actions wait for it).
    /// Cancelling the returned task stops the run, as ``stop()`` does.
    @discardableResult
    public func start(isolation: isolated any Actor = #isolation) -> Task<RunStatus, Never> {
        guard begin(on: isolation) else { return Task { .sagaFailed } }
        // The first turn, here: the scripted sagas reach their first `take` before the caller
        // goes on. A saga written in Swift met on the way is left for the task to step.
        if let native = runUntilIdle() { scheduler.scheduleFirst(native) }
        return Task {
            _ = isolation
            return await self.finish(input: nil)
        }
    }

    /// What ``run(input:isolation:)`` and ``start(isolation:)`` do before their first turn, on
    /// `actor`: the store's actions reach the interpreter from here on, and the root sagas are
    /// ready.
    ///
    /// An app's store made where `#isolation` is `nil` (an actor's synchronous `init`) and
    /// not bound yet becomes `actor`'s (see ``RunActorAdopting``).
    ///
    /// - Returns: `false` when the interpreter has been started already: an interpreter runs
    ///   once (a second run would see every action twice).
    private func begin(on actor: (any Actor)?) -> Bool {
        guard !started else {
            output.error("error: this interpreter has been started already; make a new one to run again")
            return false
        }
        if let actor, let adopting = binding as? any RunActorAdopting { adopting.adopt(actor) }
        // The store's actions reach the interpreter only while it runs (see ``InterpreterBox``).
        binding.runStarted(self)
        if let limit = options.maxMemory {
            budget.memoryWatch = MemoryWatch(limit: limit)
            vm.memoryWatch = budget.memoryWatch
        }
        vm.clock = clock
        for saga in program.sagas {
            let task = newTask(
                name: "saga \(saga.name)", location: saga.location, kind: .root, parent: nil,
                env: [Value](repeating: .null, count: saga.slotCount), body: saga.body)
            taskTree.roots.append(task)
            scheduler.schedule(task)
        }
        for (name, saga) in nativeRoots {
            let task = nativeTask(name: "saga \(name)", kind: .root, parent: nil, saga)
            taskTree.roots.append(task)
            scheduler.schedule(task)
        }
        scheduler.flushWakeups()
        started = true
        return true
    }

    /// The run after ``begin(on:)``: turns until the program ends or is stopped, by ``stop()``
    /// or by the cancellation of the task that runs it.
    private func finish(input: InputSource?, isolation: isolated (any Actor)? = #isolation) async -> RunStatus {
        let stopRequest = self.stopRequest
        // The turns run in the caller's isolation, named: the closure would not inherit it.
        return await withTaskCancellationHandler {
            await turns(input: input, isolation: isolation)
        } onCancel: {
            stopRequest.ask()
        }
    }

    /// ``finish(input:isolation:)``'s turns.
    private func turns(input: InputSource?, isolation: isolated (any Actor)? = #isolation) async -> RunStatus {
        defer {
            binding.runEnded(self)
            budget.memoryWatch?.stop()
        }
        input?.endReads(on: stopRequest)
        let inputFailure = clock.isVirtual ? await runVirtual(input) : await runReal(input)
        closeEventChannels()
        warnOfCallsNeverAnswered()
        if !budget.isSpent { taskTree.warnOfJoinsThatNeverEnd() }
        taskTree.releaseUnfinishedTasks()
        if options.printState { emit("state " + binding.stateValue.canonicalJSON) }
        if let inputFailure {
            output.error(inputFailure.described(in: input?.name))
            return .malformedInput(inputFailure.message)
        }
        return failures > 0 ? .sagaFailed : .success
    }

    /// Virtual time (see “Events and time” in Sagas/README.md): input one action at a time
    /// once idle, host completions in call order, and the clock moved only when nothing else
    /// can happen.
    private func runVirtual(_ input: InputSource?, isolation: isolated (any Actor)? = #isolation) async -> InputError? {
        var pending: InputLine?
        var inputOpen = input != nil
        while true {
            await drain()
            // A run out of budget stops as it is, with nothing run after (below). A stop
            // cancels the roots, reads no more input, and runs on until the `finally` blocks
            // have ended (see ``stop()``).
            if stopRequested, !rootsStopped, !budget.isSpent {
                await stopRoots()
                inputOpen = false
                pending = nil
                continue
            }
            scheduler.dropStaleTimers()
            if budget.isSpent {
                await settleSpentRun()
                return nil
            }
            if deliverEvents() { continue }
            if hostCalls.hasInFlight {
                // A stop wakes the wait; once the roots are stopped, their `finally` blocks
                // wait for their calls.
                if let done = await hostCalls.nextInCallOrder(unless: rootsStopped ? nil : stopRequest) {
                    deliver(done)
                }
                continue
            }
            // Through optional chaining rather than a binding, which would retain the source
            // and release it again for every line.
            if pending == nil, inputOpen {
                do {
                    pending = try input?.next()
                    if pending == nil { inputOpen = false }
                } catch {
                    // A malformed line stops the run: what the lines before it caused has
                    // happened (each was taken once the program was idle).
                    await stopRoots()
                    return error
                }
            }
            // A line due now, or with no time: its time read in place (a line bound here is
            // a copy).
            if let due = pending.map({ $0.at }), due.map({ $0 < clock.now }) ?? true {
                dispatchInputLine(taking: &pending)
                continue
            }
            if let due = scheduler.timers.nextDue, pending?.at.map({ due <= $0 }) ?? true {
                clock.advance(to: due)
                fireNextTimer()
                continue
            }
            if let at = pending?.at {
                clock.advance(to: at)
                dispatchInputLine(taking: &pending)
                continue
            }
            if binding.acceptsOutsideActions || eventSourcesHoldEnd, !stopRequested {
                await hostCalls.inbox.wait()
                heardFromOutside()
                continue
            }
            if stopRequested, !rootsStopped { continue }
            if endBlockedTakes() { continue }
            return nil
        }
    }

    /// Real time: input lines as they arrive, in order (a timed line holds back the lines
    /// after it until its moment), timers when due, host completions when done.
    private func runReal(_ input: InputSource?, isolation: isolated (any Actor)? = #isolation) async -> InputError? {
        var feed = input.map { InputFeed(source: $0, wake: hostCalls.inbox) }
        // Lines read but not yet dispatched: the first waits for its moment, the others behind it.
        let held = RingQueue<InputLine>()
        // A malformed line read ahead: it stops the run once the lines before it are
        // dispatched, each at its moment, as on the virtual clock.
        var inputFailure: InputError?
        while true {
            realTimeTurns &+= 1
            await drain()
            // A run out of budget stops as it is, with nothing run after (below). A stop
            // cancels the roots, reads no more input, and runs on until the `finally` blocks
            // have ended (see ``stop()``). Either still reports a malformed line read ahead.
            if stopRequested, !rootsStopped, !budget.isSpent {
                await stopRoots()
                feed = nil
                while held.popFirst() != nil {}
                continue
            }
            scheduler.dropStaleTimers()
            if budget.isSpent, !hostCalls.hasInFlight { return inputFailure }
            var progressed = deliverEvents()
            if let feed {
                for event in feed.drain() {
                    progressed = true
                    switch event {
                    case .line(let line):
                        heardFromOutside()
                        held.append(line)
                    case .failed(let error):
                        inputFailure = error
                        // The lines due now go at once, ahead of any timer, as the run would
                        // have taken them had it read them before; a timed one waits.
                        while let at = held.first.map({ $0.at ?? clock.now }), at <= clock.now,
                            let line = held.popFirst()
                        {
                            await dispatchNow(line)
                        }
                    }
                }
            }
            if let inputFailure, held.isEmpty, !rootsStopped {
                await drain()
                await stopRoots()
                return inputFailure
            }
            let now = clock.now
            let heldAt = held.first.map { $0.at ?? now }
            if let due = scheduler.timers.nextDue, due <= now, heldAt.map({ due <= $0 }) ?? true {
                fireNextTimer()
                continue
            }
            if let at = heldAt, at <= now {
                // Every line due now, in order, unless a timer comes between them.
                heardFromOutside()
                while let line = held.popFirst() {
                    await dispatchNow(line)
                    guard let next = held.first.map({ $0.at ?? now }), next <= now,
                        scheduler.timers.nextDue.map({ $0 > next }) ?? true
                    else { break }
                }
                continue
            }
            if progressed { continue }
            if stopRequested, !rootsStopped {
                // A run out of budget, with calls still in flight: it ends as it is.
                guard budget.isSpent else { continue }
                await stopRoots()
                return inputFailure
            }
            let inputOpen =
                !rootsStopped
                && (feed.map { !$0.isFinished } ?? false || binding.acceptsOutsideActions || eventSourcesHoldEnd)
            if !hostCalls.hasInFlight, scheduler.timers.isEmpty, held.isEmpty, !inputOpen {
                if endBlockedTakes() { continue }
                return inputFailure
            }
            for done in hostCalls.finishedCalls() {
                deliver(done)
                progressed = true
            }
            if progressed { continue }
            if let next = [scheduler.timers.nextDue, heldAt].compactMap({ $0 }).min() {
                await hostCalls.inbox.wait(milliseconds: max(1, next - clock.now))
            } else {
                await hostCalls.inbox.wait()
            }
            heardFromOutside()
        }
    }

    /// Real time: an input line, now.
    ///
    /// An action joins the dispatch queue; a message for an event channel waits until the
    /// actions of the lines before it have been processed.
    private func dispatchNow(_ line: InputLine, isolation: isolated (any Actor)? = #isolation) async {
        guard let event = line.channelEvent else { return scheduler.enqueue(line.takeAction()) }
        if !scheduler.dispatchQueue.isEmpty { await drain() }
        deliverInput(event.message, toChannel: event.name)
    }

    /// Stops the run at its next turn: every root saga is cancelled, and
    /// ``run(input:isolation:)`` returns once their `finally` blocks have ended.
    ///
    /// From the stop on, the run reads no input and does not wait for the store's outside
    /// actions. A `finally` block may wait for a delay, a host call, or an action the program
    /// or its middleware dispatches (a save's acknowledgement); a `take` that nothing else can
    /// answer gets END, as at the end of a run. A `finally` block that never ends
    /// keeps the run from ending.
    ///
    /// A stop is not a failure: the run's status is ``RunStatus/success`` unless a saga
    /// failed. A stop asked for before the run starts ends it as soon as it starts. From
    /// another isolation, cancel the task that runs it instead (a `Task` is `Sendable`).
    public func stop() {
        stopRequest.ask()
    }

    /// Warns of each task that still waits, as the run ends, on a call whose mocks line never
    /// answers: the run ends without it, and its `finally` blocks do not run.
    private func warnOfCallsNeverAnswered() {
        for (task, token, id) in neverAnswered where task.token == token {
            guard case .host(let waiting) = task.wait, waiting == id else { continue }
            let at = task.waitingStatementLocation ?? task.location
            output.error(
                "warning: the run ended with \(task.name) waiting at \(describe(at)) on a call that never "
                    + "answers (its mocks line is \"pending\": true); its finally blocks did not run")
        }
        neverAnswered = []
    }

    /// Virtual time: the end of a run out of budget, which stops as it is.
    ///
    /// The host calls its tasks wait for are cancelled; middleware work in flight (a store's writes) is waited for,
    /// and what it would dispatch is dropped.
    private func settleSpentRun(isolation: isolated (any Actor)? = #isolation) async {
        hostCalls.cancelCalls()
        while hostCalls.hasInFlight {
            guard await hostCalls.nextInCallOrder() != nil else { break }
        }
    }

    /// Cancels every root saga, and runs what that makes runnable.
    private func stopRoots(isolation: isolated (any Actor)? = #isolation) async {
        rootsStopped = true
        for root in taskTree.roots { scheduler.schedule(taskTree.cancelWork(root)) }
        await drain()
    }

    /// Resumes the task that waited for a host call, or dispatches a middleware's actions.
    private func deliver(_ done: HostCallTable.Completion) {
        guard case .task(let task, let token) = done.waiter else {
            // A middleware's results (a group commit's `persistence/saved` actions): each is
            // an event of its own, dispatched once nothing else can run. They answer the
            // program's own actions, so they are not news from outside: a saga that only saves
            // and waits for its acknowledgement feeds itself.
            if case .success(.list(let actions)) = done.result {
                for action in actions { scheduler.heldResults.append(action) }
            }
            return
        }
        heardFromOutside()
        guard task.token == token, case .host(let id) = task.wait, id == done.id else { return }
        switch done.result {
        case .success(.handle(let h)) where h.object is EventChannel:
            // A host's event channel, given to the saga: the run's own from now on.
            do throws(SagaError) {
                guard let source = h.object as? EventChannel else { return }
                wake(task, .value(try openEventChannel(source).handle))
            } catch {
                wake(
                    task,
                    .error(
                        Failure(error: error, trace: trace(task, at: task.waitingStatementLocation ?? task.location))))
            }
        case .success(let v):
            // A host's value is held to the run's limits as one the saga builds is.
            do throws(SagaError) {
                wake(task, .value(try evaluator(task).checkLength(v)))
            } catch {
                wake(
                    task,
                    .error(
                        Failure(error: error, trace: trace(task, at: task.waitingStatementLocation ?? task.location))))
            }
        case .failure(let e) where e == HostMocks.neverAnswers:
            // A mock that never answers: the task waits on, and nothing is in flight for it.
            neverAnswered.append((task, token, id))
            return
        case .failure(let e):
            var error = e
            if error.kind == nil, case .record(var r) = error.value {
                r["kind"] = "HostError"
                error = SagaError(value: .record(r))
            }
            wake(
                task,
                .error(Failure(error: error, trace: trace(task, at: task.waitingStatementLocation ?? task.location))))
        }
        scheduler.flushWakeups()
    }

    /// Fires the earliest timer, if its task still waits for it.
    private func fireNextTimer() {
        guard let timer = scheduler.timers.pop() else { return }
        let task = timer.task
        guard timer.isLive else { return }
        wake(task, .value(timer.value))
        scheduler.flushWakeups()
    }

    /// The END rule: every task blocked on a `take` (of actions, or of an empty channel)
    /// ends as if by `return`, in the order they began to wait.
    ///
    /// - Returns: whether any task was ended.
    private func endBlockedTakes() -> Bool {
        endReached = true
        let ended = scheduler.endTakes()
        guard !ended.isEmpty else { return false }
        for task in ended { wake(task, .unwind(.end)) }
        scheduler.flushWakeups()
        return true
    }
}
