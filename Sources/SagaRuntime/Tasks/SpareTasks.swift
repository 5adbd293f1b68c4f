/// Tasks that have finished, kept to run new tasks in: a task allocated, initialised,
/// destroyed and freed for each `fork`, each `race` or `all` entry and each `call` of a
/// function that waits would be a large part of what those cost.
///
/// A kept task is taken only once nothing else refers to it (no handle, no joiner, no queued
/// wake-up, no child that keeps its parent): no run can then tell a restarted task from a new
/// one (see ``SagaTask/restart(id:name:location:kind:parent:env:body:)``).
///
/// A few are kept. The one place read first (``first``) serves the usual case, a task started
/// each time the one before it has finished, at the cost of one check; the others serve tasks
/// started while others wait (`all`'s entries, forks that overlap). While every task kept is
/// still referred to (a handle that lives on, a joined task), the ones kept longest make room.
struct SpareTasks {
    /// The most tasks kept.
    static let capacity = 4

    /// The task kept in the place read first.
    private var first: SagaTask?
    /// The other tasks kept, at most `capacity - 1`.
    private var rest: [SagaTask] = []

    /// Keeps `task`, which has just finished, if there is room.
    @inline(__always)
    mutating func keep(_ task: SagaTask) {
        if first == nil {
            first = task
        } else if rest.count < Self.capacity - 1 {
            rest.append(task)
        }
    }

    /// A kept task that nothing else refers to, if any, no longer kept; the caller restarts it.
    @inline(__always)
    mutating func take() -> SagaTask? {
        if first != nil {
            if isKnownUniquelyReferenced(&first) { return first.take() }
        } else if rest.isEmpty {
            return nil
        }
        return takeFromRest()
    }

    /// ``take()`` past the place read first, whose task, if any, something else refers to: that
    /// task moves to the other places (making room, when they are full, by letting go of the
    /// one kept longest).
    @inline(never)
    private mutating func takeFromRest() -> SagaTask? {
        var found: SagaTask?
        var i = rest.count - 1
        while i >= 0 {
            if isKnownUniquelyReferenced(&rest[i]) {
                if i != rest.count - 1 { rest.swapAt(i, rest.count - 1) }
                found = rest.removeLast()
                break
            }
            i -= 1
        }
        if let held = first.take() {
            if rest.count == Self.capacity - 1 { rest.removeFirst() }
            rest.append(held)
        }
        return found
    }

    /// Lets go of every kept task (the run is over).
    mutating func removeAll() {
        first = nil
        rest.removeAll()
    }
}
