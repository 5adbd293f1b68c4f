import SagaCore
import SagaLanguage

/// An `every`, `latest` or `leading` body run in its watcher's first short turn, with no task
/// of its own.
///
/// The short turn starts the body as a task that runs right after it, and the watcher's second
/// turn right after that (see ``Interpreter/runShortTurn(_:_:_:)``): nothing else runs in
/// between. A body whose statements all complete in the turn they start in (``InlineBody``)
/// can therefore run here instead, in the same order, over its own copy of the watcher's
/// variables, and the task's life (made or restarted, adopted, queued, run, ended, released)
/// is saved: a large part of the cost of a watcher's action.
///
/// Where the body would wait, or fails, it gets its task at that point, standing where the
/// statements as written would have left it, and runs on as any body does:
/// - a statement fails: the task is queued to fail with that error, at that statement;
/// - a `put` finds other work before its action (another action queued, a task to run): the
///   task waits on the `put`, its action queued, as ``Interpreter/dispatch(_:from:)`` leaves it;
/// - a `put`'s action woke tasks, or failed: the task waits on the `put` and is woken after
///   them, as ``Interpreter/dispatchAtOnce(_:putter:)`` leaves it.
///
/// The watcher's second turn (back to its `take`) comes where it would have run: before the
/// first `put`'s action is processed (the run loop, or the `put` processed on the spot, runs
/// it first), or once the body has ended, or queued behind a body that got its task.
///
/// A `leading` watcher's second turn joins its body (``WatcherLoop/loop(of:)``), so it takes
/// again only once the body has ended: a `put` of the body is processed with the watcher taking
/// nothing, as when it waits on the join. A body that ends inline leaves `.null` in the hidden
/// `task` variable, which the second turn reads as a body ended with a value; one that gets its
/// task at a `put` processed on the spot has the watcher wait on its join at once, where the
/// statements would have left it before the action was processed.
extension Interpreter {
    /// Runs the body of `watcher`, an `every`, `latest` or `leading` watcher taking its first
    /// short turn in `task`,
    /// with the action bound in `task`'s variables: `statements` are the body's, each one
    /// that ``InlineBody`` lets through.
    func runBodyInline(_ task: SagaTask, _ watcher: ShortTurnWatcher, _ statements: [Stmt]) {
        // The body's number, taken where its task would have taken it.
        let id = makeID()
        if tracer != nil { traceStart(id, Self.bodyName, spawned: false, from: task) }
        var env = watcher.bodyVariables(movingActionOutOf: &task.env)
        // The watcher's second turn, as the short turn sets it up: run here, or queued (see
        // ``queueRetake(_:_:)``). A `leading` watcher's comes only once the body has ended.
        task.token &+= 1
        var retakeDone = false
        let joinsBody = watcher.joinSlot != nil
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        // Where the body stands: the block running, `pc` past the statement running, and the
        // blocks around it, where a task made at any point finds its place by the statement
        // (see ``Code/statementPlaces``).
        var code = statements
        var pc = 0
        var outer: [(code: [Stmt], pc: Int)] = []
        while true {
            guard pc < code.count else {
                guard let block = outer.popLast() else { break }
                code = block.code
                pc = block.pc
                continue
            }
            let statement = code[pc]
            pc += 1
            budget.stepsTaken &+= 1
            do throws(SagaError) {
                var asWritten = false
                // The effects are matched where they are in the statement: taken out as a
                // value, an effect would be copied and destroyed.
                switch statement {
                case .declare(let v, _, .expr(let e), _):
                    env[v.slot] = try ev.eval(e, env)
                case .assign(let lv, .expr(let e), _) where lv.path.isEmpty:
                    guard case .variable(let v) = lv.root else {
                        asWritten = true
                        break
                    }
                    env[v.slot] = try ev.eval(e, env)
                case .log(let e, _):
                    var line = ""
                    try ev.eval(e, env).writeDisplay(into: &line)
                    emit(line)
                case .declare(let v, _, .effect(.select(let e?, _)), _):
                    env[v.slot] = try select(e, env, cancelled: false)
                case .declare(let v, _, .effect(.select(nil, _)), _):
                    env[v.slot] = binding.stateValue
                case .effect(.select(let e?, _), _):
                    _ = try select(e, env, cancelled: false)
                case .effect(.select(nil, _), _):
                    break
                case .declare(let v, _, .effect(.put(.literal(.string(let type), _), let second, _)), _):
                    let action = try inlineAction(type, second, env)
                    guard
                        putAtOnce(
                            action, .slot(v.slot), task, watcher, id, env, &retakeDone, joinsBody: joinsBody,
                            statement: statement)
                    else { return }
                    env[v.slot] = action
                case .effect(.put(.literal(.string(let type), _), let second, _), _):
                    let action = try inlineAction(type, second, env)
                    guard
                        putAtOnce(
                            action, .discard, task, watcher, id, env, &retakeDone, joinsBody: joinsBody,
                            statement: statement)
                    else { return }
                case .if(let arms, let elseBlock, _):
                    var arm: [Stmt]? = elseBlock?.statements
                    for conditional in arms where try ev.condition(conditional.condition, env) {
                        arm = conditional.body.statements
                        break
                    }
                    guard let arm else { break }
                    if pc < code.count { outer.append((code, pc)) }
                    code = arm
                    pc = 0
                default:
                    asWritten = true
                }
                if asWritten {
                    // Not one that ``InlineBody`` lets through: it runs as written.
                    let child = bodyTask(task, watcher, id, env, at: BodyPlace(statement, past: false))
                    scheduler.schedule(child)
                    queueRetake(task, retakeDone)
                    return
                }
            } catch {
                // As the statement fails in a task: past it, with the error raised there.
                let child = bodyTask(task, watcher, id, env, at: BodyPlace(statement, past: true))
                let failure = Failure(error: error, trace: trace(child, at: statement.location))
                child.resumption = .unwind(.throwError(failure))
                scheduler.schedule(child)
                queueRetake(task, retakeDone)
                return
            }
        }
        watcher.keepVariables(&env)
        // The step that finds the body's end, and the body's turn as a task.
        budget.stepsTaken &+= 2
        if !retakeDone { retakeNow(task, watcher) }
    }

    /// Where a body stands, for a task made there (see ``bodyTask(_:_:_:_:at:)``): at the start
    /// of a statement, to run it, or past it.
    private struct BodyPlace {
        var statement: Stmt
        var past: Bool

        init(_ statement: Stmt, past: Bool) {
            self.statement = statement
            self.past = past
        }
    }

    /// The name of a body's task (see ``startBody(of:in:id:env:)``).
    static let bodyName = "fork block"

    /// A `put` of the body at `pc`, its action made, as ``dispatch(_:from:)`` runs it: the
    /// action processed on the spot once the watcher has taken again, or, where a task would
    /// wait on the `put`, the body given its task, waiting there.
    ///
    /// `joinsBody` says whether the watcher is `leading`'s, which takes again only once the body
    /// has ended.
    ///
    /// - Returns: `false` if the body now has a task, which goes on from there.
    @inline(__always)
    private func putAtOnce(
        _ action: Value, _ target: ResultTarget, _ task: SagaTask, _ watcher: ShortTurnWatcher, _ id: Int,
        _ env: [Value], _ retakeDone: inout Bool, joinsBody: Bool, statement: Stmt
    ) -> Bool {
        guard canDispatchAtOnce else {
            let child = bodyTask(task, watcher, id, env, at: BodyPlace(statement, past: true))
            if tracer != nil { traceEffect(of: statement, child) }
            child.target = target
            block(child, on: .put)
            scheduler.enqueue(action, putter: child)
            queueRetake(task, retakeDone)
            return false
        }
        // As ``dispatchAtOnce(_:putter:)`` records it, before the work it runs first.
        if tracer != nil { tracePutAtOnce(id, Self.bodyName) }
        if !retakeDone, !joinsBody {
            retakeDone = true
            retakeNow(task, watcher)
        }
        let failure = processAtOnce(action)
        if failure == nil, !scheduler.stepMadeWork, !budget.isSpent { return true }
        let child = bodyTask(task, watcher, id, env, at: BodyPlace(statement, past: true))
        if tracer != nil { traceEffect(of: statement, child) }
        if joinsBody {
            // Where the `join` statement would have left it before the action was processed.
            retakeDone = true
            budget.stepsTaken &+= 1
            if tracer != nil { traceWait(of: watcher, task, join: true) }
            move(task, watcher, past: .join)
            task.target = .discard
            blockOnJoin(task, of: child)
        }
        child.target = target
        block(child, on: .put)
        wakePutter(child, failure, action)
        return false
    }

    /// The action of the body's `put "TYPE" [PAYLOAD]`, as the statement makes it.
    private func inlineAction(_ type: String, _ second: Expr?, _ env: [Value]) throws(SagaError) -> Value {
        if let action = constantAction(type: type, second) { return action }
        return try action(type: type, second, env, cancelled: false)
    }

    /// The body's task, at last: started as the short turn starts it, with the variables as
    /// the body has left them, standing at `place`.
    ///
    /// The caller has it run or wait.
    private func bodyTask(
        _ task: SagaTask, _ watcher: ShortTurnWatcher, _ id: Int, _ env: [Value], at place: BodyPlace
    ) -> SagaTask {
        let child = startBody(of: watcher, in: task, id: id, env: env)
        task.adopt(child)
        // Where the statement's code starts (its step, taken again by the task) or ends.
        if let code = child.code.statementPlaces[place.statement.location] {
            child.pc = Int(place.past ? code.end : code.start)
        } else {
            assertionFailure("a statement of a watcher's body has no place in the body's code")
        }
        // `latest` keeps the handle of the body it started last, to cancel it with the next
        // action. Only its own statements read it, none of which runs while the body does; a
        // body that ended inline leaves the null there, which cancels nothing, as cancelling an
        // ended body does nothing.
        if let lastSlot = watcher.lastSlot { task.env[lastSlot] = child.handle }
        // `leading` joins it: the watcher stands at its `join`, as its `fork` leaves it.
        if let joinSlot = watcher.joinSlot {
            task.env[joinSlot] = child.handle
            move(task, watcher, past: .fork)
        }
        return child
    }

    /// The watcher's second turn, run now, as the run loop would run its queued turn (the
    /// task's resumption is `.start`, as ``execute(_:)`` leaves it).
    private func retakeNow(_ task: SagaTask, _ watcher: ShortTurnWatcher) {
        _ = retake(task, watcher)
    }

    /// The watcher's second turn queued behind its body's task, unless it has run: setting it
    /// up only here spares the body that runs to its end two writes of the task's resumption,
    /// each an outlined destroy.
    private func queueRetake(_ task: SagaTask, _ retakeDone: Bool) {
        if retakeDone { return }
        task.resumption = .retake
        scheduler.schedule(task)
    }
}
