import SagaCore
import SagaLanguage

extension TaskTree {
    /// A task's body has ended; the task ends once its attached children have (see
    /// “Completion” in Sagas/README.md).
    func bodyEnded(_ task: SagaTask, _ completion: Completion) {
        task.frames = []
        task.endCode()
        switch completion {
        case .returnValue(let v): task.outcome = .value(v)
        case .throwError(let f), .abort(let f): if task.failure == nil { task.failure = f }
        case .cancel: task.isCancelling = true
        case .end: task.endedByEnd = true
        case .normal: break
        }
        task.phase = .children
        if task.traceOpen { interpreter?.runTrace?.unblock(task) }
        task.token &+= 1
        task.wait = .none
        if task.failure != nil || task.isCancelling {
            for child in task.children { scheduler.schedule(cancelWork(child)) }
        }
        finishIfDone(task)
    }

    /// Finishes a task whose body has ended and whose children have all ended, then its
    /// parent if that was the last child it waited for, and so on up: a loop, not a
    /// recursion, however long the chain of tasks each forked by the one before.
    func finishIfDone(_ task: SagaTask) {
        guard task.phase == .children, task.liveChildren == 0 else { return }
        var parent = finish(task)
        while let next = parent, next.phase == .children, next.liveChildren == 0 { parent = finish(next) }
    }

    /// Finishes a task: its outcome goes to its joiners and to whoever waits for it; an
    /// attached task's failure aborts its parent.
    ///
    /// - Returns: the parent of an attached task, which may be done now, for the caller to
    ///   finish next; `nil` otherwise.
    private func finish(_ task: SagaTask) -> SagaTask? {
        task.phase = .done
        liveTasks -= 1
        if task.ownsVariables {
            task.clearVariables()
        } else {
            task.env = []
        }
        let outcome: Outcome
        if let f = task.failure {
            outcome = .failed(f)
        } else if task.isCancelling {
            outcome = .cancelled
        } else {
            outcome = .value(task.result)
        }
        task.outcome = outcome
        // Its task can run a task started later, once nothing refers to it.
        if task.kind != .root { spareTasks.keep(task) }
        var highest: SagaTask??
        task.takeJoiners { joiner, token in
            // The abort cancels a joiner below it before the joiner hears of the failure.
            if task.kind == .attached, task.failure != nil {
                // The parent is the joiner most often: the abort stops its wait.
                if joiner === task.parent { return }
                let top = highest ?? highestAborted(by: task)
                highest = top
                if let top, isBelow(joiner, top) { return }
            }
            joinedTaskEnded(joiner, token)
        }

        var next: SagaTask?
        switch task.kind {
        case .attached:
            guard let parent = task.parent else { break }
            parent.release(task)
            if case .failed(let f) = outcome {
                if parent.failure != nil {
                    // The parent fails with a sibling's error already: this one is reported,
                    // not dropped, and the parent finishes once its children have.
                    failedWhileCancelled(task, f)
                    next = parent
                } else if markAborted(parent, f) {
                    next = parent
                }
            } else {
                next = parent
            }
        case .root, .detached:
            if case .failed(let f) = outcome { interpreter?.report(task, f) }
        case .owned:
            switch task.owner {
            case .none:
                break
            case .caller(let caller):
                guard case .task(let awaited) = caller.wait, awaited === task else {
                    // Its caller went on (it is being cancelled).
                    if case .failed(let f) = outcome { failedWhileCancelled(task, f) }
                    break
                }
                switch outcome {
                case .value(let v): wake(caller, .value(v))
                case .failed(let f): wake(caller, .error(f))
                case .cancelled: calledTaskCancelled(caller)
                }
            case .entry(let combinator, let index):
                if task.endedByEnd, case .value = outcome {
                    endOwner(of: combinator, except: index)
                } else if combinator.isSettled, case .failed(let f) = outcome {
                    // A losing entry whose cancellation failed (a `finally` threw).
                    failedWhileCancelled(task, f)
                } else {
                    entryEnded(combinator, index, outcome)
                }
            }
        }
        // It lets go of its parent, but where a task it spawned (or one below it spawned), which
        // may fail later, names it and those above it in its stack.
        if !task.keepsParent { task.parent = nil }
        task.owner = .none
        return next
    }

    /// Cancels a task (see “Cancellation” in Sagas/README.md): first the effect it is blocked
    /// on (a called function, whole), then its body unwinds through its finally blocks with
    /// `cancelled` true, then its running attached children are cancelled in start order.
    ///
    /// The tasks a blocked effect waits for (a called function's, a `race`'s or an `all`'s
    /// entries) are cancelled before the task itself, theirs before theirs: a loop over a
    /// stack, not a recursion, however long the chain of calls through `race` or `all`.
    ///
    /// - Returns: the work to do, in order.
    func cancelWork(_ task: SagaTask) -> [Work] {
        if task.isDone || task.isCancelling { return [] }
        task.isCancelling = true
        var work: [Work] = []
        let waitedFor = tasksOfBlockedEffect(task)
        guard !waitedFor.isEmpty else {
            cancelBody(task, into: &work)
            return work
        }
        // Each entry: a task being cancelled, the tasks its effect waits for, the next one. A
        // task's body is cancelled once all it waits for are, the first task's last.
        var stack = [(task: task, waitedFor: waitedFor, next: 0)]
        while let top = stack.indices.last {
            let next = stack[top].next
            guard next == stack[top].waitedFor.count else {
                stack[top].next = next + 1
                let inner = stack[top].waitedFor[next]
                if inner.isDone || inner.isCancelling { continue }
                inner.isCancelling = true
                stack.append((inner, tasksOfBlockedEffect(inner), 0))
                continue
            }
            cancelBody(stack.removeLast().task, into: &work)
        }
        return work
    }

    /// The end of a task's cancellation, once what its effect waited for is cancelled: its
    /// body unwinds, then its children are cancelled.
    private func cancelBody(_ task: SagaTask, into work: inout [Work]) {
        if task.traceOpen { interpreter?.runTrace?.unblock(task) }
        if task.phase == .body {
            task.token &+= 1
            task.wait = .none
            task.resumption = .unwind(.cancel)
            work.append(.run(task, task.token))
        }
        work.append(.cancelChildren(task))
    }

    /// What a task that called another (`call` of a saga function, `retry`, a compensation)
    /// does when that one was cancelled: a transaction goes on with its other compensations,
    /// as after one that ended; a caller already cancelled goes on unwinding; any other caller
    /// is cancelled too, as in redux-saga, where a called saga that cancels itself cancels its
    /// task.
    private func calledTaskCancelled(_ caller: SagaTask) {
        if case .compensating = caller.frames.last {
            wake(caller, .value(.null))
        } else if caller.isCancelling {
            wake(caller, .unwind(.cancel))
        } else {
            scheduler.schedule(cancelWork(caller))
        }
    }

    /// Cancels what a task is blocked on.
    ///
    /// Takers, timers and joins need nothing: the task's token changes, which makes their
    /// wake-ups stale.
    private func cancelBlockedEffect(_ task: SagaTask) -> [Work] {
        tasksOfBlockedEffect(task).flatMap { cancelWork($0) }
    }

    /// The tasks a task's blocked effect waits for, which its cancellation cancels first.
    ///
    /// They are a called function's task, or a `race`'s or an `all`'s entries (the combinator
    /// is then settled). A host call it waits for is cancelled here.
    private func tasksOfBlockedEffect(_ task: SagaTask) -> [SagaTask] {
        switch task.wait {
        case .task(let owned):
            return [owned]
        case .combinator(let combinator):
            combinator.isSettled = true
            return combinator.entries
        case .host(let id):
            interpreter?.hostCalls.cancel(id)
            return []
        case .none, .take, .channel, .put, .join, .joinOne, .timer:
            return []
        }
    }

    /// An attached child failed (see “Errors and tasks” in Sagas/README.md): the parent's body
    /// stops where it is blocked and runs its finally blocks (not its catch), its other
    /// children are cancelled, and then it fails with the same error.
    func abort(_ parent: SagaTask, _ failure: Failure) {
        if markAborted(parent, failure) { finishIfDone(parent) }
    }

    /// Reports the failure of a task that nothing waits for any more.
    ///
    /// That is a race's loser, an all's entry cancelled by another's error, a called function
    /// whose caller is being cancelled, which threw from a `finally` while it was cancelled,
    /// or a child whose parent fails with a sibling's error already. The race or all has its
    /// result, the caller or parent its own way out: the failure is reported as a spawned
    /// task's is (the run exits 1), never dropped.
    private func failedWhileCancelled(_ task: SagaTask, _ failure: Failure) {
        let name = task.name.trimmingPrefix("call ")
        interpreter?.report(
            task, failure, what: task.isCancelling ? name + ", cancelled," : name + ", whose parent had failed,")
    }

    /// ``abort(_:_:)``'s work but the finishing: whether the parent's body had ended already
    /// (its children are then cancelled), so that the parent may finish now.
    ///
    /// A parent being cancelled keeps the failure (a child's `finally` threw while it was
    /// cancelled): it ends failed with it, so that the error goes on up instead of vanishing.
    private func markAborted(_ parent: SagaTask, _ failure: Failure) -> Bool {
        if parent.isDone || parent.failure != nil { return false }
        if parent.isCancelling {
            parent.failure = failure
            return parent.phase == .children
        }
        parent.failure = failure
        if parent.phase == .body {
            scheduler.schedule(cancelBlockedEffect(parent))
            if parent.traceOpen { interpreter?.runTrace?.unblock(parent) }
            parent.token &+= 1
            parent.wait = .none
            parent.resumption = .unwind(.abort(failure))
            scheduler.schedule(parent)
            scheduler.wakeups.append(.cancelChildren(parent))
            return false
        }
        for child in parent.children { scheduler.schedule(cancelWork(child)) }
        return true
    }

    /// The highest task that the failure of `failed`, an attached task, aborts: its parent,
    /// and up through each attached task's parent, to the first that is not attached (a root,
    /// a spawned task, or one run for a caller, which can catch the error).
    ///
    /// Every task that failure aborts or cancels is this one or below it. As in redux-saga,
    /// where these aborts run before the failed task's joiners are resumed, a joiner below it
    /// is cancelled and never sees the error (see “Errors and tasks” in Sagas/README.md).
    private func highestAborted(by failed: SagaTask) -> SagaTask? {
        var highest: SagaTask?
        var task = failed
        while task.kind == .attached, let parent = task.parent {
            highest = parent
            task = parent
        }
        return highest
    }

    /// Whether `task` is `ancestor` or runs below it: its child, a task run for it (a called
    /// function, an entry of its `race` or `all`), theirs, and so on down.
    private func isBelow(_ task: SagaTask, _ ancestor: SagaTask) -> Bool {
        var current: SagaTask? = task
        while let t = current {
            if t === ancestor { return true }
            switch t.kind {
            case .attached:
                current = t.parent
            case .owned:
                switch t.owner {
                case .caller(let caller): current = caller
                case .entry(let combinator, _): current = combinator.owner
                case .none: current = nil
                }
            case .root, .detached:
                current = nil
            }
        }
        return false
    }

    /// A task that `joiner` waits for has ended.
    private func joinedTaskEnded(_ joiner: SagaTask, _ token: Int) {
        guard joiner.token == token else { return }
        if case .joinOne(let t) = joiner.wait {
            if !endedJoinWithoutValue(t, joiner) { wake(joiner, .value(t.result)) }
            return
        }
        guard case .join(let state) = joiner.wait else { return }
        for t in state.tasks where t.isDone {
            if endedJoinWithoutValue(t, joiner) { return }
        }
        state.remaining -= 1
        guard state.tasks.allSatisfy(\.isDone) else { return }
        wake(
            joiner, with: TaskTree.joinResult(state.tasks, isList: state.isList),
            madeOf: state.isList ? state.tasks.map(\.result) : [])
    }

    /// If `t` failed or was cancelled, ends `joiner`'s wait as joining it does at once: the
    /// failure is thrown in the joiner, a cancellation cancels it.
    ///
    /// `false` if `t` has a value.
    private func endedJoinWithoutValue(_ t: SagaTask, _ joiner: SagaTask) -> Bool {
        switch t.outcome {
        case .failed(let f)?: wake(joiner, .error(f))
        case .cancelled?:
            noteJoinCancels(joiner, at: joiner.waitingStatementLocation)
            scheduler.schedule(cancelWork(joiner))
        default: return false
        }
        return true
    }

    /// Says on standard error that a root saga is cancelled because a task it joins (at
    /// `location`) was: as in redux-saga, it then ends with no error, which would otherwise
    /// leave the rest of its body unrun without a word.
    ///
    /// The joiner may be a saga function the root calls, or an entry of its `race` or `all`
    /// (or one of theirs): its cancellation cancels the task waiting for it, up to the root.
    func noteJoinCancels(_ joiner: SagaTask, at location: SourceLocation?) {
        var task = joiner
        while task.kind == .owned {
            switch task.owner {
            case .caller(let caller):
                // A transaction goes on after a compensation that was cancelled.
                if case .compensating = caller.frames.last { return }
                task = caller
            case .entry(let combinator, _):
                task = combinator.owner
            case .none:
                return
            }
        }
        guard task.kind == .root, !task.isCancelling else { return }
        let place = location.map { " at " + (interpreter?.describe($0) ?? "?") } ?? ""
        interpreter?.output.error(
            "note: saga \(task.name.trimmingPrefix("saga ")) is cancelled: the task it joins\(place) was cancelled")
    }

    /// The value of a finished join.
    static func joinResult(_ tasks: [SagaTask], isList: Bool) -> Value {
        if isList { return .list(tasks.map(\.result)) }
        return tasks.first?.result ?? .null
    }

    /// An entry of a race or an all has ended.
    private func entryEnded(_ combinator: Combinator, _ index: Int, _ outcome: Outcome) {
        guard !combinator.isSettled else { return }
        let owner = combinator.owner
        guard case .combinator(let c) = owner.wait, c === combinator else { return }
        switch outcome {
        case .value(let v):
            if combinator.kind == .race {
                settle(combinator, except: index)
                wake(owner, with: .record(Record([(combinator.keys[index], v)])), madeOf: CollectionOfOne(v))
                return
            }
            if combinator.results.isEmpty { combinator.results = Array(repeating: .null, count: combinator.count) }
            combinator.results[index] = v
            combinator.remaining -= 1
            if combinator.remaining == 0 {
                combinator.isSettled = true
                if combinator.kind == .allList {
                    wake(owner, with: .list(combinator.results), madeOf: combinator.results)
                } else {
                    wake(
                        owner, with: .record(Record(zip(combinator.keys, combinator.results))),
                        madeOf: combinator.results)
                }
            }
        case .failed(let f):
            settle(combinator, except: index)
            wake(owner, .error(f))
        case .cancelled:
            settle(combinator, except: index)
            scheduler.schedule(cancelWork(owner))
        }
    }

    /// Wakes `task` with `value`, a list or record of `parts` (a join's or a combinator's
    /// result), or with a `RangeError` where a part nests too deeply to be an item of it, as
    /// a list or record literal would fail.
    private func wake(
        _ task: SagaTask, with value: @autoclosure () -> Value, madeOf parts: some Collection<Value>
    ) {
        do throws(SagaError) {
            for part in parts { try Value.checkDepth(of: part) }
        } catch {
            let at = task.waitingStatementLocation ?? task.location
            return wake(task, .error(Failure(error: error, trace: interpreter?.trace(task, at: at) ?? [])))
        }
        wake(task, .value(value()))
    }

    /// END reached an entry of a race or an all (a `take` in it ended): as in redux-saga,
    /// the race or all ends its task too, as if by `return`.
    private func endOwner(of combinator: Combinator, except index: Int) {
        guard !combinator.isSettled else { return }
        let owner = combinator.owner
        guard case .combinator(let c) = owner.wait, c === combinator else { return }
        settle(combinator, except: index)
        wake(owner, .unwind(.end))
    }

    /// Marks a combinator decided and cancels its other entries.
    private func settle(_ combinator: Combinator, except index: Int) {
        combinator.isSettled = true
        for (i, entry) in combinator.entries.enumerated() where i != index {
            scheduler.schedule(cancelWork(entry))
        }
    }
}
