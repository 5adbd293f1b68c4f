import SagaCore

extension TaskTree {
    /// The most tasks waiting on a `join` at the end of a run that ``warnOfJoinsThatNeverEnd()``
    /// looks at: past it, the search would cost more than a warning is worth.
    static let joinersLookedAt = 1_000

    /// Warns of each task that still waits, as the run ends, on a `join` that could never end.
    ///
    /// The task it joins waits in turn, through its children, the saga functions it calls and
    /// the tasks it joins, for the joining task itself. Nothing could end any of them (as in
    /// redux-saga, where such sagas never settle); their `finally` blocks do not run.
    func warnOfJoinsThatNeverEnd() {
        guard hasWaitedOnJoin, let interpreter else { return }
        for joiner in liveJoiners() where Self.waitsForItself(joiner) {
            let at = joiner.waitingStatementLocation ?? joiner.location
            interpreter.output.error(
                "warning: the run ended with \(joiner.name) waiting at \(interpreter.describe(at)) on a join that can never end "
                    + "(the task it joins waits, through its children, calls and joins, for it); "
                    + "its finally blocks did not run")
        }
    }

    /// The most unfinished tasks ``warnOfJoinsThatNeverEnd()`` walks through to find them.
    static let tasksLookedAt = 200_000

    /// The unfinished tasks that wait on a `join`, met from the roots and the tasks that wait
    /// on an action, a channel, a timer or a dispatch, through children, calls, entries, joins
    /// and joiners; at most ``joinersLookedAt``.
    private func liveJoiners() -> [SagaTask] {
        var pending = roots + scheduler.heldTasks
        var seen = Set<ObjectIdentifier>()
        var joiners: [SagaTask] = []
        while let task = pending.popLast(), joiners.count < Self.joinersLookedAt, seen.count < Self.tasksLookedAt {
            guard !task.isDone, seen.insert(ObjectIdentifier(task)).inserted else { continue }
            switch task.wait {
            case .joinOne(let joined):
                joiners.append(task)
                pending.append(joined)
            case .join(let state):
                joiners.append(task)
                pending += state.tasks
            case .task(let owned): pending.append(owned)
            case .combinator(let combinator): pending += combinator.entries
            case .none, .take, .channel, .put, .timer, .host: break
            }
            pending += task.children
            task.forEachJoiner { pending.append($0) }
        }
        return joiners
    }

    /// Whether `joiner`, waiting on a `join`, is among the tasks what it joins waits for.
    private static func waitsForItself(_ joiner: SagaTask) -> Bool {
        var pending = tasksAwaited(by: joiner)
        var seen = Set<ObjectIdentifier>()
        while let task = pending.popLast() {
            if task === joiner { return true }
            guard seen.insert(ObjectIdentifier(task)).inserted else { continue }
            pending += tasksAwaited(by: task)
        }
        return false
    }

    /// The unfinished tasks whose end `task` waits for before it can go on or end: the
    /// attached children of a task whose body has ended, the saga function it calls, the
    /// tasks it joins. (A `race` or `all` may end by an entry's error or win: not followed.)
    private static func tasksAwaited(by task: SagaTask) -> [SagaTask] {
        var awaited: [SagaTask] = []
        switch task.phase {
        case .done:
            return []
        case .children:
            awaited = task.children
        case .body:
            switch task.wait {
            case .joinOne(let joined): awaited = [joined]
            case .join(let state): awaited = state.tasks
            case .task(let owned): awaited = [owned]
            case .none, .take, .channel, .put, .combinator, .timer, .host: break
            }
        }
        return awaited.filter { !$0.isDone }
    }
}
