import SagaCore
import SagaStore

extension TaskTree {
    /// Once a run is over, lets go of the tasks that did not finish.
    ///
    /// A run stopped by its step budget (`maxRunSteps`), or left with tasks blocked for ever,
    /// ends with tasks that still point at one another (a parent and its children, a caller
    /// and the task it waits for, a race and its entries), and without this they would outlive
    /// the interpreter as leaks.
    ///
    /// A finished task already let go of its links, but for its parent, which holds none back
    /// to it.
    ///
    /// Every unfinished task is reached from what the scheduler holds (roots, queues, takers,
    /// timers, channels) or from another such task; each is then emptied of its links.
    func releaseUnfinishedTasks() {
        var pending: [SagaTask] = roots + scheduler.heldTasks
        var channels: [Channel] = scheduler.actionChannels

        var seen = Set<ObjectIdentifier>()
        // A combinator's entries, each of which leads to them all, are gathered once.
        var seenCombinators = Set<ObjectIdentifier>()
        func gather(_ c: Combinator) {
            guard seenCombinators.insert(ObjectIdentifier(c)).inserted else { return }
            pending += c.entries
            pending.append(c.owner)
        }
        while let task = pending.popLast() {
            guard seen.insert(ObjectIdentifier(task)).inserted else { continue }
            if let parent = task.parent { pending.append(parent) }
            pending += task.children
            task.takeJoiners { joiner, _ in pending.append(joiner) }
            switch task.wait {
            case .task(let owned): pending.append(owned)
            case .combinator(let c): gather(c)
            case .join(let state): pending += state.tasks
            case .joinOne(let t): pending.append(t)
            case .channel(let channel): channels.append(channel)
            case .none, .take, .put, .timer, .host: break
            }
            switch task.owner {
            case .caller(let caller): pending.append(caller)
            case .entry(let c, _): gather(c)
            case .none: break
            }
            for value in task.env { Self.collect(value, into: &pending, &channels) }
            task.forgetLinks()
        }
        for channel in channels {
            channel.takers.removeAll()
            channel.messages.removeAll()
        }
        roots = []
        scheduler.removeAll()
        spareTasks.removeAll()
    }

    /// The tasks and channels a variable's value holds, directly or in a list or record one
    /// level down (as `inboxes = [c1, c2, …]` does).
    private static func collect(_ value: Value, into tasks: inout [SagaTask], _ channels: inout [Channel]) {
        func one(_ v: Value) {
            guard case .handle(let h) = v else { return }
            if let task = h.object as? SagaTask { tasks.append(task) }
            if let channel = h.object as? Channel { channels.append(channel) }
        }
        switch value {
        case .handle: one(value)
        case .list(let items): items.forEach(one)
        case .record(let r): r.values.forEach(one)
        default: break
        }
    }
}
