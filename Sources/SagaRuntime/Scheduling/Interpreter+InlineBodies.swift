import SagaCore
import SagaLanguage

/// A `fork` block run in its parent's turn, with no task of its own.
///
/// A `fork`'s child takes its first turn at once, in the statement, where it can (see
/// ``Interpreter/runFirstTurn(parentWaits:_:)`` and ``Interpreter/runFirstTurnBeforeTake(_:_:_:)``):
/// nothing else runs between the `fork` and the child's turn. A block whose code only
/// computes, selects, logs and puts (see ``Code/inlineSteps``) can therefore run here instead,
/// over its own frame of variables, as its task would run it; the task's life (made or
/// restarted, adopted, run, ended, released) is saved. That is most of the cost of a watcher's
/// action: `every`'s loop is `loop { let a = take P; fork { B } }`.
///
/// Only where nobody can tell: the `fork`'s handle is dropped (`fork { … }` as a statement), or
/// kept in a watcher's hidden variable (``Code/Site/handleIsHidden``), which only the watcher's
/// own `cancel` and `join` read. A block that ends here leaves there a handle of a task that
/// has ended (``Interpreter/endedBodyHandle``): cancelling it does nothing, joining it gives
/// `null` at once.
///
/// Where the block would wait, or fails, it gets its task at that point, standing where its
/// code stopped, and goes on as any task does:
/// - an instruction fails: the task fails there, at once, as in its first turn;
/// - a `put` finds other work before its action (another action queued, a task to run, a
///   parent waiting for its turn): the task waits on the `put`, its action queued, as
///   ``Interpreter/dispatch(_:from:)`` leaves it;
/// - a `put`'s action woke tasks, or failed: the task waits on the `put` and is woken after
///   them, as ``Interpreter/dispatchAtOnce(_:putter:)`` leaves it.
///
/// The task stands in the `try`s its code began (``Interpreter/inlineHandlers``), so that an
/// error there goes to their `catch` blocks, in the task.
extension Interpreter {
    /// A block running in its parent's turn: what its code's `put`s need to give it its task
    /// (see ``putInline(_:into:_:_:past:_:)``).
    struct InlineBodyRun {
        /// The task whose `fork` runs the block: held unretained (the `fork` holds it).
        let parentReference: Unmanaged<SagaTask>
        /// The block's code: held unretained (the parent's code holds it).
        let codeReference: Unmanaged<Code>
        /// The block's number, taken where its task would have taken it.
        let id: Int
        let location: SourceLocation
        /// The block's task, once it has one.
        var child: SagaTask?
    }

    /// Runs `code`, a `fork` block of `parent` at `location`, over its frame of the parent's
    /// variables (the first `size`), in the parent's turn: `nil` if it ended there, or the task
    /// it got (see ``InlineBodies``), adopted by `parent`, which has taken its first turn.
    ///
    /// The caller checked that it may (see ``mayRunInline(_:)``).
    func runInline(_ code: Code, frame size: Int, parent: SagaTask, at location: SourceLocation) -> SagaTask? {
        let id = taskTree.makeID()
        if let runTrace { runTrace.start(id, Self.bodyName, spawned: false, from: parent) }
        // Not counted among the live tasks until it has its task (see ``bodyTask(_:_:past:_:)``):
        // nothing that runs meanwhile starts a task or reads the count.
        var frame = inlineFrame(size, of: parent, code)
        var run = InlineBodyRun(
            parentReference: .passUnretained(parent), codeReference: .passUnretained(code), id: id, location: location)
        let room = bodyRoom.room(for: code.roomCount)
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        var pc = 0
        var failure: SagaError?
        var exit = CodeExit.end
        runsInline = true
        withUnsafeMutablePointer(to: &run) { run in
            // No limit falls inside the block (see ``mayRunInline(_:)``); its steps are counted
            // once it has run, as a task's are.
            var counts = CodeSteps(self, inline: run, yieldAfter: Int.max, maxSteps: Int.max)
            do throws(SagaError) {
                exit = try frame.withUnsafeMutableBufferPointer { (slots) throws(SagaError) -> CodeExit in
                    try vm.run(
                        code, &noState, slots.baseAddress ?? room, action: .null, room, ev, pc: &pc, steps: &counts)
                }
            } catch {
                noState = .null
                failure = error
            }
            budget.stepsTaken &+= counts.ran
        }
        runsInline = false
        if let child = run.child {
            // A `put` gave the block its task, which goes on from where the code stopped.
            child.env = frame
            child.ownsVariables = true
            moveRoom(room, to: child)
            return child
        }
        guard failure == nil, case .end = exit else {
            // As the instruction fails in the task's first turn: past it, with the error raised
            // there. (Code that ``Code/inlineSteps`` lets through stops nowhere else; should it,
            // the block goes on as a task from there.)
            let child = bodyTask(&run, frame, past: pc, room)
            if let failure {
                let at = pc > 0 && pc <= code.lines.count ? code.lines[pc - 1] : child.location
                child.resumption = .unwind(.throwError(Failure(error: failure, trace: trace(child, at: at))))
            }
            execute(child)
            return child
        }
        keepInlineFrame(&frame)
        // The step that finds the block's end.
        budget.stepsTaken &+= 1
        return nil
    }

    /// Whether a `fork` of a block with `code` may run it in its parent's turn: its code can
    /// (``Code/inlineSteps``), no step limit falls inside it, and no block runs so already (the
    /// room of its temporaries is the interpreter's).
    ///
    /// The caller checks the rest: the child would take its first turn at once, and nobody
    /// can tell it had no task.
    @inline(__always)
    func mayRunInline(_ code: Code) -> Bool {
        let steps = code.inlineStepCount
        return steps >= 0 && steps <= options.maxSteps && !runsInline
    }

    /// The name of a `fork` block's task.
    static let bodyName = "fork block"

    /// A `put` of `action` into `slot` (-1: nowhere), statement `site` of `code`, by a block
    /// running in its parent's turn, whose code goes on at `pc`, as ``dispatch(_:from:)`` runs
    /// it: the action processed on the spot (`true`: its value is the action), or, where a
    /// task would wait on the `put`, `false`: the block has its task, waiting there.
    ///
    /// A parent whose next turn is pending (``pendingRetake``) takes it first, as it does for a
    /// task's `put` processed on the spot.
    func putInline(
        _ action: Value, into slot: Int32, _ code: Code, _ site: Int, past pc: Int, _ run: inout InlineBodyRun
    ) -> Bool {
        let target: ResultTarget = slot >= 0 ? .slot(Int(slot)) : .discard
        guard canDispatchAtOnce else {
            let child = bodyTask(&run, [], past: pc, nil)
            if let runTrace { runTrace.noteEffect(at: code.sites[site], child) }
            child.target = target
            block(child, on: .put)
            scheduler.enqueue(action, putter: child)
            return false
        }
        // As ``dispatchAtOnce(_:putter:)`` records it, before the work it runs first.
        if let runTrace { runTrace.putAtOnce(run.id, Self.bodyName) }
        let failure = processAtOnce(action)
        if failure == nil, !scheduler.stepMadeWork, !budget.isSpent { return true }
        let child = bodyTask(&run, [], past: pc, nil)
        if let runTrace { runTrace.noteEffect(at: code.sites[site], child) }
        child.target = target
        block(child, on: .put)
        wakePutter(child, failure, action)
        return false
    }

    /// The block's task, at last: started as the `fork` starts it, with the variables `env`
    /// (the caller sets them where the code still runs over them), standing at `pc`, the
    /// temporaries in `room` moved to it when given.
    ///
    /// The caller has it run or wait.
    private func bodyTask(
        _ run: inout InlineBodyRun, _ env: [Value], past pc: Int, _ room: UnsafeMutablePointer<Value>?
    ) -> SagaTask {
        let parent = run.parentReference.takeUnretainedValue()
        let child = taskTree.makeTask(
            id: run.id, name: Self.bodyName, location: run.location, kind: .attached, parent: parent, env: env,
            code: run.codeReference.takeUnretainedValue())
        child.ownsVariables = true
        run.child = child
        taskTree.liveTasks += 1
        parent.adopt(child)
        child.pc = pc
        if let room { moveRoom(room, to: child) }
        // It stands in the `try`s the code began.
        if !inlineHandlers.isEmpty {
            for handler in inlineHandlers { child.beginTry(handler) }
            inlineHandlers.removeAll(keepingCapacity: true)
        }
        return child
    }

    /// Moves the temporaries the block's code left in `room` to its task.
    private func moveRoom(_ room: UnsafeMutablePointer<Value>, to child: SagaTask) {
        for t in 0..<child.code.roomCount {
            if case .null = room[t] { continue }
            var value = Value.null
            swap(&value, &room[t])
            child.setTemporary(t, to: value)
        }
    }

    /// The frame a block with `code` starts with: the variables of its parent's that it uses
    /// (see ``Code/copyCaptures(_:into:)``), in the array of one that ended where one was kept
    /// (see ``keepInlineFrame(_:)``): no block run so allocates one.
    private func inlineFrame(_ size: Int, of parent: SagaTask, _ code: Code) -> [Value] {
        var frame: [Value] = []
        swap(&frame, &spareFrame)
        guard frame.count == size else { return TaskTree.ownFrame(size, of: parent.env, code) }
        if size == 0 || code.captureCount == 0 { return frame }
        frame.withUnsafeMutableBufferPointer { slots in
            parent.env.withUnsafeBufferPointer { code.copyCaptures($0, into: slots) }
        }
        return frame
    }

    /// Keeps the frame of a block that ended for the next, its slots set to null at once, so
    /// that what they held is let go when the block ends.
    private func keepInlineFrame(_ frame: inout [Value]) {
        if frame.isEmpty { return }
        frame.withUnsafeMutableBufferPointer { slots in
            for i in 0..<slots.count {
                if case .null = slots[i] { continue }
                slots[i] = .null
            }
        }
        swap(&frame, &spareFrame)
    }

    /// The handle a `fork` whose block ended in its parent's turn leaves in a watcher's hidden
    /// variable (see ``Code/Site/handleIsHidden``): a stand-in task that has ended with `null`,
    /// numbered ``SagaTask/endedBodyID``.
    func endedBodyHandle(_ code: Code, at location: SourceLocation) -> Value {
        if let endedBody { return endedBody }
        let task = SagaTask(
            id: SagaTask.endedBodyID, name: Self.bodyName, location: location, kind: .attached, parent: nil, env: [],
            body: code)
        task.phase = .done
        task.outcome = .value(.null)
        let handle = task.handle
        endedBody = handle
        endedBodyObject = ObjectIdentifier(task)
        return handle
    }

    /// Whether `value` is the handle of the stand-in for blocks that ended in their parent's
    /// turn (see ``endedBodyHandle(_:at:)``), looked at where it lies.
    @inline(__always)
    func isEndedBodyHandle(_ value: UnsafePointer<Value>) -> Bool {
        guard let endedBodyObject, case .handle(let handle) = value.pointee, handle.id == SagaTask.endedBodyID,
            let object = handle.object
        else { return false }
        return ObjectIdentifier(object) == endedBodyObject
    }
}
