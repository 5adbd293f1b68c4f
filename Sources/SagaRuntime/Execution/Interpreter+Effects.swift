import SagaCore
import SagaLanguage

/// What performing an effect did.
enum EffectResult {
    /// It completed at once with this value.
    case value(Value)
    /// The task blocked on it.
    case suspended
    /// It ends the body abruptly (a task cancelling itself, joining a cancelled task).
    case completion(Completion)
    /// A function was called inline: the task now runs its code.
    case entered
    /// A `put` whose action was processed at once and woke no task (see
    /// ``Interpreter/dispatchAtOnce(_:putter:)``): the task goes on as if it had been resumed.
    case dispatched(Value)
    /// A `fork` or `spawn` whose child took its first turn at once, with this value (the
    /// child's handle): the task takes its own turn next, behind what the child made to run.
    case resumedAfterChild(Value)
    /// ``resumedAfterChild(_:)`` of a `fork` whose handle is where the statement wants it
    /// already, or dropped (a block run in its parent's turn).
    case resumedAfterChildStored
}

extension Interpreter {
    /// Performs an effect for a task (see “Effects” in Sagas/README.md), over the values the
    /// code computed of its operands (``SagaLanguage/Effect/operands``, read here by their
    /// index in that list).
    func perform(
        _ effect: Effect, _ operands: inout EffectOperands, _ task: SagaTask
    ) throws(SagaError)
        -> EffectResult
    {
        switch effect {
        case .take(let pattern, let condition, _):
            return try take(pattern, condition, operands, task)
        case .put(_, let second, _):
            return try put(hasPayload: second != nil, &operands, task)
        case .select:
            // Code over the store's state (see ``Code/Instruction/selectState(site:)``).
            throw SagaError(kind: "InternalError", message: "select runs in the task's code")
        case .call(let callee, _, let loc):
            return try call(callee, operands.all, task, loc)
        case .fork(let body, let loc):
            try reserveTasks(1)
            return try start(body, operands, kind: .attached, from: task, at: loc)
        case .spawn(let body, let loc):
            try reserveTasks(1)
            return try start(body, operands, kind: .detached, from: task, at: loc)
        case .join:
            return try join(operands[0], task)
        case .cancel(let expr, _):
            guard expr != nil else { return cancelSelf(task) }
            let value = operands[0]
            // `cancel [t1, t2]` cancels each in turn, as redux-saga's `cancel([…])`; the task
            // itself, if it is in the list, last.
            var targets: [SagaTask] = []
            switch value {
            case .handle(let h):
                guard let target = h.object as? SagaTask else {
                    throw SagaError.typeError("cancel needs a task, got a \(h.kind.rawValue)")
                }
                if target === task { return cancelSelf(task) }
                scheduler.schedule(taskTree.cancelWork(target))
                return .value(.null)
            case .list(let items):
                for item in items {
                    guard case .handle(let h) = item, let target = h.object as? SagaTask else {
                        throw SagaError.typeError("cancel needs tasks, got \(item.kindName) in the list")
                    }
                    targets.append(target)
                }
            default:
                throw SagaError.typeError("cancel needs a task or a list of tasks, got \(value.kindName)")
            }
            var others = false
            for target in targets where target !== task {
                scheduler.schedule(taskTree.cancelWork(target))
                others = true
            }
            guard targets.contains(where: { $0 === task }) else { return .value(.null) }
            // Last: after the others' cancellations, as another task's cancel would come.
            guard others else { return cancelSelf(task) }
            scheduler.schedule(taskTree.cancelWork(task))
            return .suspended
        case .delay(_, let valueExpr, _):
            let ms = try Interpreter.milliseconds(operands[0], "delay")
            let value = valueExpr == nil ? Value.bool(true) : operands[1]
            block(task, on: .timer(0))
            let sequence = scheduler.timers.add(due: try due(after: ms), task: task, token: task.token, value: value)
            task.wait = .timer(sequence)
            return .suspended
        case .race(let entries, let loc):
            try reserveTasks(entries.count)
            return startCombinator(.race, keys(of: entries), count: entries.count, task, loc) {
                (entries[$0].effect, task.env)
            }
        case .allRecord(let entries, let loc):
            try reserveTasks(entries.count)
            return startCombinator(.allRecord, keys(of: entries), count: entries.count, task, loc) {
                (entries[$0].effect, task.env)
            }
        case .allList(let effects, let loc):
            try reserveTasks(effects.count)
            return startCombinator(.allList, [], count: effects.count, task, loc) { (effects[$0], task.env) }
        case .allFor(let variable, _, let effect, let loc):
            let list = operands[0]
            switch list {
            case .list, .record: break
            default: throw SagaError.typeError("all for … in needs a list or a record, got \(list.kindName)")
            }
            let items = try Interpreter.iterationItems(list)
            try reserveTasks(items.count)
            var entries: [(Effect, [Value])] = []
            entries.reserveCapacity(items.count)
            for (i, item) in items.enumerated() {
                // One effect can make millions of entries: the budget is read as they are made.
                if i & 4095 == 4095, let watch = budget.memoryWatch, watch.check() { throw watch.error }
                var env = task.env
                env[variable.slot] = item
                entries.append((effect, env))
            }
            return startCombinator(.allList, [], count: entries.count, task, loc, oneEffect: true) { entries[$0] }
        case .retry(_, _, _, let loop, let loc):
            let count = operands[0]
            guard let n = Evaluator.integer(count), n >= 1 else {
                throw SagaError.typeError("retry needs a whole number of at least 1, got \(count.canonicalJSON)")
            }
            try reserveTasks(1)
            return runOwned(loop.body, env: Self.frame(of: loop, from: task.env, count: n), name: "retry", task, loc)
        case .channel(let buffer, let kind, _):
            var limit: Int?
            if buffer != nil { limit = try bufferSize(operands[0], kind) }
            return .value(Channel(id: taskTree.makeID(), limit: limit, kind: kind).handle)
        case .actionChannel(let pattern, let buffer, var kind, let location):
            var throttles = false
            var limit: Int?
            if let buffer {
                if case .literal(.string(WatcherLoop.slidingMarker), _) = buffer {
                    throttles = true
                    (limit, kind) = (1, .sliding)
                } else {
                    limit = try bufferSize(operands[0], kind)
                }
            }
            // The pattern's value, after the buffer's.
            let patternValue = operands[operands.count - 1]
            // `throttle D CH`: the channel itself, as redux-saga's throttle takes from a channel
            // it is given; what arrives during the pause waits in that channel's buffer.
            if throttles, case .expr = pattern, case .handle(let h) = patternValue, h.kind == .channel {
                return .value(.handle(h))
            }
            let channel = Channel(id: taskTree.makeID(), limit: limit, kind: kind)
            if case .expr = pattern {
                channel.pattern = try ActionPattern(patternValue)
            } else {
                channel.pattern = .any
            }
            channel.madeAt = location
            channel.waitSequence = scheduler.nextWaitSequence()
            scheduler.actionChannels.append(channel)
            return .value(channel.handle)
        case .close:
            close(try self.channel(operands[0], "close"))
            return .value(.null)
        case .flush:
            let channel = try self.channel(operands[0], "flush")
            var messages: [Value] = []
            while let message = channel.messages.popFirst() { messages.append(message) }
            return .value(.list(messages))
        case .watcher(let watcher):
            return .value(try start(watcher, task))
        }
    }

    /// Starts a watcher's task; its handle.
    ///
    /// The task is attached to `task` (or to the combinator it is an entry of), and runs the
    /// watcher's loop (``Watcher/loop``) over a copy of the frame, the loop's hidden variable null.
    @inline(never)
    private func start(_ watcher: Watcher, _ task: SagaTask) throws(SagaError) -> Value {
        try reserveTasks(1)
        let parent = forkingParent(task)
        var env = task.env
        if watcher.hiddenSlot >= 0 {
            if watcher.hiddenSlot >= env.count { env = TaskTree.padded(env, to: watcher.hiddenSlot + 1) }
            env[watcher.hiddenSlot] = .null
        }
        let child = newTask(
            name: "\(watcher.kind.rawValue) watcher", location: watcher.location, kind: .attached,
            parent: parent, env: env, body: watcher.loop)
        if watcher.hiddenSlot >= 0 { child.code.markHiddenHandles(in: watcher.hiddenSlot) }
        parent.adopt(child)
        if let runTrace { runTrace.start(child, from: parent) }
        scheduler.schedule(child)
        return child.handle
    }

    /// The size a `buffer N` names: its limit, or `nil` for an `expanding` buffer, which grows.
    private func bufferSize(_ value: Value, _ kind: BufferKind) throws(SagaError) -> Int? {
        guard let n = Evaluator.integer(value), n >= 0 else {
            throw SagaError.typeError("a buffer size must be a whole number ≥ 0, got \(value.canonicalJSON)")
        }
        return kind == .expanding ? nil : n
    }

    /// The longest wait: about 285,000 years, far from overflowing the clock.
    static let maxDelay = 1 << 53

    /// A duration in milliseconds: a number ≥ 0 (a fraction is rounded), at most ``maxDelay``.
    static func milliseconds(_ value: Value, _ what: String) throws(SagaError) -> Int {
        switch value {
        case .int(let i): return min(max(0, i), maxDelay)
        case .double(let d) where d.isFinite: return d >= Double(maxDelay) ? maxDelay : max(0, Int(d.rounded()))
        default: throw SagaError.typeError("\(what) needs a number of milliseconds, got \(value.kindName)")
        }
    }

    /// The moment `ms` milliseconds from now.
    ///
    /// - Throws: a `RangeError` when it is past the clock's last moment (`Int.max`), which the
    ///   virtual clock nears after input timed near it, or after a long run of the longest
    ///   delays (``maxDelay``).
    func due(after ms: Int) throws(SagaError) -> Int {
        let (due, overflow) = clock.now.addingReportingOverflow(ms)
        guard !overflow else {
            throw SagaError(
                kind: "RangeError",
                message: "delay \(ms): the clock, at \(clock.now), would pass its end (\(Int.max) ms)")
        }
        return due
    }

    private func cancelSelf(_ task: SagaTask) -> EffectResult {
        task.isCancelling = true
        return .completion(.cancel)
    }

    /// Blocks `task` on a `take` of `channel`, which is empty and open.
    func wait(_ task: SagaTask, on channel: Channel) {
        block(task, on: .channel(channel))
        channel.takers.append((task, task.token))
        scheduler.addChannelWaiter(task)
    }

    /// The channel `value` is, for `close` and `flush` (`what`).
    private func channel(_ value: Value, _ what: String) throws(SagaError) -> Channel {
        guard case .handle(let h) = value, h.kind == .channel, let channel = channel(of: h) else {
            throw SagaError.typeError("\(what) needs a channel, got \(value.kindName)")
        }
        return channel
    }

    private func take(
        _ pattern: Pattern, _ condition: Expr?, _ operands: EffectOperands, _ task: SagaTask
    ) throws(SagaError) -> EffectResult {
        let actionPattern: ActionPattern
        switch pattern {
        case .any:
            actionPattern = .any
        case .expr(.literal(.string(let s), _)):
            // The usual `take "type"`: no evaluator and no value to look through; the statement
            // running keeps the pattern, read from the type when the code was made.
            actionPattern = runningSite?.pattern(ofTake: s) ?? ActionPattern(string: s)
        case .expr:
            let value = operands[0]
            if case .handle(let h) = value, h.kind == .channel, let channel = channel(of: h) {
                // A channel's messages are taken in order: a `where` would have to skip some
                // and leave them for whom?
                if condition != nil {
                    throw SagaError.typeError(
                        "a take on a channel has no 'where': its messages are taken in order (test the message after the take)"
                    )
                }
                if let message = channel.messages.popFirst() { return .value(message) }
                // A closed channel, once empty, ends its takers as END does, or throws the error
                // its source failed with.
                if channel.isClosed {
                    if let failure = channel.failure { throw failure }
                    return .completion(.end)
                }
                wait(task, on: channel)
                return .suspended
            }
            switch value {
            case .string, .list: actionPattern = try ActionPattern(value)
            default:
                // A watcher's loop (its task is named `every watcher` and so on) takes its
                // pattern: the error names the watcher's keyword.
                let suffix = " watcher"
                var effect = "take"
                if task.name.hasSuffix(suffix),
                    let kind = Watcher.Kind(rawValue: String(task.name.dropLast(suffix.count)))
                {
                    effect = kind.rawValue
                }
                throw SagaError.typeError(
                    "\(effect) needs a channel, a type pattern or a list of them, got \(value.kindName)")
            }
        }
        block(task, on: .take)
        var compiled: TakeCondition?
        if let condition {
            compiled = runningSite?.condition ?? TakeCondition(condition, slotCount: task.env.count)
        }
        addTaker(Taker(task, pattern: actionPattern, condition: compiled))
        return .suspended
    }

    /// `put A` or `put A B`, over the values of `A` and `B` (`hasPayload`), which it takes.
    private func put(
        hasPayload: Bool, _ operands: inout EffectOperands, _ task: SagaTask
    ) throws(SagaError)
        -> EffectResult
    {
        let a = operands.take(0)
        let action: Value
        if hasPayload {
            // Taken, so that adding `type` to a record payload does not copy its entries.
            var b = operands.take(1)
            switch a {
            case .string(let type):
                action = try Self.action(type: type, payload: &b)
            case .handle(let h) where h.kind == .channel:
                guard let channel = channel(of: h) else { throw SagaError.typeError("not a channel") }
                // In the one queue with actions, as redux-saga's puts share one: delivered now
                // only when the queue would deliver it next.
                guard canDispatchAtOnce else {
                    block(task, on: .put)
                    scheduler.enqueue(b, putter: task, channel: channel)
                    return .suspended
                }
                guard withinLimitsAtOnce() else {
                    // The run is stopped: the put never happens.
                    block(task, on: .put)
                    return .suspended
                }
                guard channelPut(channel, b) else { throw channel.overflowError(maxBuffer: options.maxBuffer) }
                return .value(.null)
            default:
                throw SagaError.typeError("put needs an action type or a channel first, got \(a.kindName)")
            }
        } else {
            switch a {
            case .string(let type):
                action = LiteralAction.typeOnly(type)
            case .record(let r):
                guard case .string? = r["type"] else {
                    throw SagaError.typeError("an action must be a record with a string 'type'")
                }
                action = a
            case .handle(let h) where h.kind == .channel:
                throw SagaError.typeError("put to a channel needs a value: put CH VALUE")
            default:
                throw SagaError.typeError("put needs an action, got \(a.kindName)")
            }
        }
        return dispatch(action, from: task)
    }

    /// `put TYPE PAYLOAD`'s action: the payload, which must be a record without a `type`, with
    /// `type` added.
    ///
    /// `payload` is left null, so that adding `type` does not copy its entries.
    private static func action(type: String, payload b: inout Value) throws(SagaError) -> Value {
        guard case .record(var payload) = b else {
            throw SagaError.typeError("the payload of put must be a record, got \(b.kindName)")
        }
        b = .null
        guard payload.insertIfAbsent("type", .string(type)) else {
            throw SagaError.typeError("the payload of put \"\(type)\" must not hold 'type'")
        }
        return .record(payload)
    }

    /// Hands a `put`'s action on: processed at once when nothing else could run first (see
    /// ``dispatchAtOnce(_:putter:)``), queued otherwise, the putter waiting for its turn.
    ///
    /// The action is consumed: it is queued, or handed back in ``EffectResult/dispatched(_:)``,
    /// without a copy, which saves a retain and a release a `put`.
    func dispatch(_ action: consuming Value, from task: SagaTask) -> EffectResult {
        if canDispatchAtOnce { return dispatchAtOnce(action, putter: task) }
        block(task, on: .put)
        scheduler.enqueue(action, putter: task)
        return .suspended
    }

    /// The task a `fork`, `spawn` or watcher that `task` starts belongs to: `task` itself, or,
    /// when `task` is an entry of a `race` or `all` (the fork is the entry's effect), the task
    /// running the `race` or `all`.
    ///
    /// As in redux-saga, such an entry gives its task at once, and the task is the parent's
    /// child: `all [fork a(), fork b()]` gives back the two tasks without waiting for them, and
    /// a `fork` entry of a `race` wins it without its task being cancelled.
    func forkingParent(_ task: SagaTask) -> SagaTask {
        guard task.isCombinatorEntry else { return task }
        if case .entry(let combinator, _) = task.owner { return combinator.owner }
        return task
    }

    /// `fork`/`spawn`: starts a child that runs until it first blocks; then the parent goes on.
    ///
    /// The child's handle is the value; the child takes its first turn at once where it can
    /// (see ``runFirstTurn(parentWaits:_:)``), with no task of its own where nobody can tell (see
    /// ``InlineBodies``).
    private func start(
        _ body: TaskBody, _ operands: EffectOperands, kind: SagaTask.Kind, from starter: SagaTask,
        at loc: SourceLocation
    ) throws(SagaError) -> EffectResult {
        let task = forkingParent(starter)
        let child: SagaTask
        switch body {
        case .block(let block):
            let size = block.frameSize >= 0 ? Int(block.frameSize) : starter.env.count
            let code = code(of: block, slotCount: size)
            if kind == .attached, let site = runningSite, forkTakesNext || childTakesTurnAtOnce,
                let result = startInline(code, frame: size, starter, site, at: loc)
            {
                return result
            }
            return startBlock(code, frame: size, kind: kind, from: starter, at: loc)
        case .call(.function(let index, _), _):
            child = try functionTask(index, operands.all, kind: kind, parent: task, at: loc)
        case .call(let callee, let argExprs):
            child = effectTask(
                .call(callee, argExprs, loc), at: loc, entry: 0, name: "host call", kind: kind, parent: task,
                env: starter.env)
        }
        return started(child, kind: kind, from: starter)
    }

    /// `fork`/`spawn` of a block whose code is `code`, over the first `size` of `starter`'s
    /// variables, as a task, as ``start(_:_:kind:from:at:)`` starts one (see
    /// ``newTask(name:location:kind:parent:running:frame:in:sharesFrame:)`` for `sharesFrame`).
    ///
    /// The caller has tried ``startInline(_:frame:_:_:at:)`` first, where a `fork` may run its
    /// block in its parent's turn.
    func startBlock(
        _ code: Code, frame size: Int, kind: SagaTask.Kind, from starter: SagaTask, at loc: SourceLocation,
        sharesFrame: Bool = true
    ) -> EffectResult {
        let task = forkingParent(starter)
        let child = newTask(
            name: kind == .attached ? "fork block" : "spawn block", location: loc, kind: kind, parent: task,
            running: code, frame: size, in: starter.env, sharesFrame: sharesFrame)
        return started(child, kind: kind, from: starter)
    }

    /// A child a `fork` or `spawn` of `starter` has made: adopted, or kept apart, and run.
    private func started(_ child: SagaTask, kind: SagaTask.Kind, from starter: SagaTask) -> EffectResult {
        let task = forkingParent(starter)
        if kind == .attached { task.adopt(child) } else { task.keepParentsOnceFinished() }
        if let runTrace { runTrace.start(child, from: task) }
        if forkTakesNext, starter === task, task.native == nil, let site = runningSite {
            // Stored before the child runs: a `put` it processes on the spot takes the task's
            // next turn, which waits on a `take` with a target of its own.
            let target = task.target
            task.target = .discard
            if runFirstTurnBeforeTake(task, site, { execute(child) }) {
                if case .discard = target {} else { store(child.handle, into: target, task) }
                return .suspended
            }
            task.target = target
        }
        let token = task.token
        let ranAtOnce =
            childTakesTurnAtOnce && starter === task && task.native == nil
            && runFirstTurn(parentWaits: runningSite?.joinsNext != true) { execute(child) }
        if !ranAtOnce { scheduler.schedule(child) }
        // A child that failed aborted the task, whose turn to unwind is queued.
        if ranAtOnce, task.token != token { return .suspended }
        // A handle nobody keeps (`fork { … }` as a statement) is not worth an allocation.
        let handle: Value
        if case .discard = starter.target { handle = .null } else { handle = child.handle }
        return ranAtOnce ? .resumedAfterChild(handle) : .value(handle)
    }

    /// A `fork` of a block with `code` by `task`, statement `site`, whose child would take its
    /// first turn at once (``Code/Site/takesNext`` or ``Code/Site/childTakesTurnAtOnce``), run in
    /// `task`'s turn with no task of its own where it can (see ``InlineBodies``): its handle,
    /// which goes into `task.target`, is dropped, or kept in a watcher's hidden variable
    /// (``Code/Site/handleIsHidden``).
    ///
    /// - Returns: `nil` if the child is better started as a task, having done nothing.
    func startInline(
        _ code: Code, frame size: Int, _ task: SagaTask, _ site: Code.Site, at loc: SourceLocation
    ) -> EffectResult? {
        // Not an entry of a `race` or `all`: the task is its own forking parent.
        guard task.native == nil, !task.isCombinatorEntry else { return nil }
        let target = task.target
        if case .discard = target {} else if !site.handleIsHidden { return nil }
        guard mayRunInline(code) else { return nil }
        var child: SagaTask?
        if site.takesNext {
            task.target = .discard
            let ran = runFirstTurnBeforeTake(task, site) {
                child = runInline(code, frame: size, parent: task, at: loc)
            }
            guard ran else {
                task.target = target
                return nil
            }
            storeHandle(of: child, code, at: loc, into: target, task)
            return .suspended
        }
        let token = task.token
        let ran = runFirstTurn(parentWaits: !site.joinsNext) {
            child = runInline(code, frame: size, parent: task, at: loc)
        }
        guard ran else { return nil }
        // A child that failed aborted the task, whose turn to unwind is queued.
        if task.token != token { return .suspended }
        if case .discard = target { return .resumedAfterChildStored }
        storeHandle(of: child, code, at: loc, into: target, task)
        task.target = .discard
        return .resumedAfterChildStored
    }

    /// Writes the handle of a block run in `task`'s turn into `target`: its task's, or, where it
    /// ended there, ``endedBodyHandle(_:at:)``'s, unless `target` holds that already (as a
    /// watcher's hidden variable does from its second action on).
    private func storeHandle(
        of child: SagaTask?, _ code: Code, at loc: SourceLocation, into target: ResultTarget, _ task: SagaTask
    ) {
        switch target {
        case .discard:
            return
        case .slot(let slot):
            if child == nil,
                task.env.withUnsafeBufferPointer({ slots in
                    slot < slots.count && slots.baseAddress.map { isEndedBodyHandle($0 + slot) } == true
                })
            {
                return
            }
        case .temporary:
            break
        }
        store(child?.handle ?? endedBodyHandle(code, at: loc), into: target, task)
    }

    /// Writes a `fork`'s handle where its statement wants it, `target`.
    private func store(_ handle: Value, into target: ResultTarget, _ task: SagaTask) {
        switch target {
        case .discard: break
        case .slot(let slot): task.env[slot] = handle
        case .temporary(let t): task.setTemporary(t, to: handle)
        }
    }

    /// For a `fork` after which `task`'s code only goes back to a `take` (`site`, see
    /// ``Code/Site/takesNext``): runs the child's first turn at once (`firstTurn`), then
    /// `task`'s next turn, as the run loop would run them next, the child ahead of the task.
    ///
    /// The task's turn goes first in the run order while the child's runs (see
    /// ``pendingRetake``): a `put` the child processes on the spot takes it first. Otherwise it
    /// is taken once the child's turn is over, unless the child made work, which goes ahead of
    /// it, or the run's limits stop the run there: then it is queued, as a quiet turn (see
    /// ``SagaTask/nextTurnIsQuiet``).
    ///
    /// - Returns: `false` if the two are better queued, having done nothing.
    @inline(__always)
    private func runFirstTurnBeforeTake(_ task: SagaTask, _ site: Code.Site, _ firstTurn: () -> Void) -> Bool {
        guard pendingRetake == nil, Int(site.nextTake.steps) <= options.maxSteps, takesTurnAtOnce() else {
            return false
        }
        let token = task.token
        pendingRetake = .passUnretained(task)
        pendingRetakeToken = token
        pendingTake = site.nextTake
        // Statements of the child's own run while it does.
        forkTakesNext = false
        turnsAtOnce += 1
        firstTurn()
        turnsAtOnce -= 1
        // A `put` the child processed on the spot took the task's turn.
        guard pendingRetake != nil else { return true }
        pendingRetake = nil
        // Unless the child's failure aborted the task.
        guard task.token == token, !task.isDone else { return true }
        if scheduler.stepMadeWork || (budget.checksEachTurn && !withinRunLimits())
            || runStepsLeft < Int(site.nextTake.steps)
        {
            // Marked quiet by the statement (see ``runCode(_:_:)``).
            yieldTask(task)
            return true
        }
        continueToTake(task, site.nextTake)
        return true
    }

    /// The turn of `task` that stands past a statement after which its code only goes back to
    /// a `take` (`next`: that statement's ``Code/Site/nextTake``): it takes the steps there and
    /// waits on that `take`, as its code would.
    @inline(__always)
    func continueToTake(_ task: SagaTask, _ next: (pc: Int32, take: Int32, steps: Int32)) {
        budget.stepsTaken &+= Int(next.steps)
        task.pc = Int(next.pc) + 1
        // The task holds its code while it waits there: read without a retain.
        Unmanaged.passUnretained(task.code)._withUnsafeGuaranteedRef { code in
            take(code.takes + Int(next.take), code, task)
        }
    }

    /// Runs a child's first turn at once (`firstTurn`), as the run loop would run it next (see
    /// ``takesTurnAtOnce()``), its parent waiting for its own turn meanwhile.
    ///
    /// Where the parent `parentWaits`, no `put` is processed on the spot while the child runs,
    /// since the parent's turn would come before the action. One that only joins the child next
    /// (``Code/Site/joinsNext``) would block there while the child waits on its `put`, which
    /// nobody can tell from its blocking later.
    ///
    /// - Returns: `false` if the child is better queued, having done nothing.
    @inline(__always)
    private func runFirstTurn(parentWaits: Bool, _ firstTurn: () -> Void) -> Bool {
        guard takesTurnAtOnce() else { return false }
        // Statements of the child's own run while it does.
        childTakesTurnAtOnce = false
        turnsAtOnce += 1
        if parentWaits { parentsWaiting += 1 }
        firstTurn()
        if parentWaits { parentsWaiting -= 1 }
        turnsAtOnce -= 1
        return true
    }

    /// The variables a `retry`'s loop starts with: a copy of the frame, with room for the
    /// loop's hidden variables, `attempt` 0 and `count` the retry's.
    private static func frame(of loop: RetryLoop, from env: [Value], count: Int) -> [Value] {
        let first = loop.firstSlot
        var frame =
            env.count >= first + RetryLoop.hiddenCount ? env : TaskTree.padded(env, to: first + RetryLoop.hiddenCount)
        frame[first] = .int(0)
        for slot in first + 1..<loop.countSlot { frame[slot] = .null }
        frame[loop.countSlot] = .int(count)
        return frame
    }

    /// Runs a body as an owned task that `task` waits for, like `call`.
    private func runOwned(
        _ body: Block, env: [Value], name: String, _ task: SagaTask, _ loc: SourceLocation
    ) -> EffectResult {
        let child = newTask(name: name, location: loc, kind: .owned, parent: task, env: env, body: body)
        child.owner = .caller(task)
        block(task, on: .task(child))
        scheduler.schedule(child)
        return .suspended
    }

    func join(_ value: Value, _ task: SagaTask) throws(SagaError) -> EffectResult {
        var tasks: [SagaTask] = []
        let isList: Bool
        switch value {
        case .handle(let h):
            guard let t = h.object as? SagaTask else {
                throw SagaError.typeError("join needs a task, got a \(h.kind.rawValue)")
            }
            return try joinOne(t, task)
        case .list(let items):
            for item in items {
                guard case .handle(let h) = item, let t = h.object as? SagaTask else {
                    throw SagaError.typeError("join needs tasks, got \(item.kindName) in the list")
                }
                tasks.append(t)
            }
            isList = true
        default:
            throw SagaError.typeError("join needs a task or a list of tasks, got \(value.kindName)")
        }
        if tasks.contains(where: { $0 === task }) { throw SagaError.typeError("a task cannot join itself") }
        for t in tasks where t.isDone {
            if let ended = failedOrCancelledJoin(t, task) { return ended }
        }
        let pending = tasks.filter { !$0.isDone }
        if pending.isEmpty {
            if isList { for t in tasks { try Value.checkDepth(of: t.result) } }
            return .value(TaskTree.joinResult(tasks, isList: isList))
        }
        let state = JoinState(tasks: tasks, isList: isList)
        state.remaining = pending.count
        block(task, on: .join(state))
        taskTree.hasWaitedOnJoin = true
        for t in pending { t.addJoiner(task, token: task.token) }
        return .suspended
    }

    /// `join t`, the usual form (and `leading`'s): what `join [t]` does, but returning `t`'s
    /// result itself, and waiting without a join state.
    ///
    /// The arrays and the state of the general form would be five allocations per join.
    private func joinOne(_ t: SagaTask, _ task: SagaTask) throws(SagaError) -> EffectResult {
        if t === task { throw SagaError.typeError("a task cannot join itself") }
        if t.isDone { return failedOrCancelledJoin(t, task) ?? .value(t.result) }
        blockOnJoin(task, of: t)
        return .suspended
    }

    /// Blocks `task` until `t`, which is running, ends.
    func blockOnJoin(_ task: SagaTask, of t: SagaTask) {
        block(task, on: .joinOne(t))
        taskTree.hasWaitedOnJoin = true
        t.addJoiner(task, token: task.token)
    }

    /// What `task` joining `t`, which has ended, does at once if `t` did not end with a value:
    /// `t`'s failure is thrown, and a cancelled `t` cancels the joiner.
    ///
    /// `nil` for a value.
    private func failedOrCancelledJoin(_ t: SagaTask, _ task: SagaTask) -> EffectResult? {
        switch t.outcome {
        case .failed(let f)?: return .completion(.throwError(f))
        case .cancelled?:
            taskTree.noteJoinCancels(task, at: runningSite?.statement.location)
            task.isCancelling = true
            return .completion(.cancel)
        default: return nil
        }
    }

    /// `race` and `all`: each entry runs as an owned task, started in order.
    ///
    /// The run loop would run the entries' first turns next, one after the other, ahead of
    /// everything else: each takes its turn here, at once, while nothing else was made to run
    /// before it. An entry whose turn makes work has it run first, and the entries after it
    /// then wait for their turns in the run loop, behind it. Once an entry has decided the
    /// combinator (won the race, or failed), the entries after it would be cancelled before
    /// their first turn: they are not made (their numbers are taken all the same: every entry
    /// is numbered before the first runs). While the entries after one wait to start, its `put`
    /// is not processed on the spot: it waits, as in the run loop, and they start first.
    ///
    /// `oneEffect` says whether every entry runs the same effect (`all for`), whose code is then
    /// made once for them all.
    ///
    /// `entry` gives entry `i`'s effect and the variables it runs over.
    func startCombinator(
        _ kind: Combinator.Kind, _ keys: [String], count: Int, _ task: SagaTask, _ loc: SourceLocation,
        oneEffect: Bool = false, entry: (Int) -> (effect: Effect, env: [Value])
    ) -> EffectResult {
        if count == 0 {
            return .value(kind == .allList ? .list([]) : .record(Record()))
        }
        let combinator = Combinator(kind: kind, owner: task, keys: keys, count: count)
        block(task, on: .combinator(combinator))
        let site = runningSite
        // The entries are numbered first, in order, as when they were all made before any ran.
        let firstID = taskTree.nextID
        taskTree.nextID += count
        for i in 0..<count {
            // Past the memory budget the run stops, and the entries made so far with it.
            if i & 4095 == 4095, let watch = budget.memoryWatch, watch.check() {
                overran(.memory(limit: watch.limit))
                break
            }
            if combinator.isSettled { continue }
            // An entry's turn may have run statements of its own.
            runningSite = site
            let (effect, env) = entry(i)
            let entry = effectTask(
                effect, at: effect.location, entry: oneEffect ? 0 : i, name: kind == .race ? "race entry" : "all entry",
                kind: .owned, parent: task, env: env, id: firstID + i)
            entry.owner = .entry(combinator, i)
            combinator.entries.append(entry)
            if task.native == nil, takesTurnAtOnce() {
                // The entries after it would be ready before its `put`'s action: none is
                // processed on the spot while they wait to start.
                let othersWait = i < count - 1
                turnsAtOnce += 1
                if othersWait { parentsWaiting += 1 }
                execute(entry)
                if othersWait { parentsWaiting -= 1 }
                turnsAtOnce -= 1
            } else {
                scheduler.schedule(entry)
            }
        }
        return .suspended
    }

    /// The keys of a `race`'s or an `all`'s entries: made once for the statement running where it
    /// stands (see ``runningSite``).
    private func keys(of entries: [EffectEntry]) -> [String] {
        guard let site = runningSite else { return entries.map(\.key) }
        if let keys = site.entryKeys { return keys }
        let keys = entries.map(\.key)
        site.entryKeys = keys
        return keys
    }

    /// Whether a task made in this turn takes its first turn at once, as the run loop would
    /// take it next: nothing else was made to run in this turn, the run's limits allow one more
    /// turn (counted here, as the run loop counts its turns), and turns taken so are not
    /// nested too deeply (each holds the machine stack).
    ///
    /// Not in a run with a yield budget (`--yield-after`), where a task may yield part-way
    /// through its turn and the turns of the others then come in between.
    private func takesTurnAtOnce() -> Bool {
        options.shortCuts && options.yieldAfterSteps == nil && !scheduler.stepMadeWork
            && turnsAtOnce < Self.mostTurnsAtOnce && (!budget.checksEachTurn || withinRunLimits())
    }

    /// How deeply turns taken at once may nest (see ``takesTurnAtOnce()``).
    static let mostTurnsAtOnce = 64
}
