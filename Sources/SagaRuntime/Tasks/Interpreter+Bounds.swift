import SagaCore
import SagaLanguage

// The limits that keep a hostile or buggy program from taking the whole machine: how many
// tasks may be alive, how many messages a channel may buffer, how long a list or string may
// grow. Each failure is a `RangeError` that names the limit and the flag that raises it.

extension Interpreter {
    /// Makes a task and counts it as alive until it finishes.
    func newTask(
        name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value], body: Block
    ) -> SagaTask {
        newTask(
            name: name, location: location, kind: kind, parent: parent, env: env,
            code: code(of: body, slotCount: env.count))
    }

    /// Makes a task that runs `code`, and counts it as alive until it finishes.
    func newTask(
        name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value], code: Code
    ) -> SagaTask {
        taskTree.liveTasks += 1
        return makeTask(id: makeID(), name: name, location: location, kind: kind, parent: parent, env: env, code: code)
    }

    /// Makes a task that runs `code`, a `fork`'s or `spawn`'s block, over its frame of `env` (the
    /// first `size` slots), and counts it as alive until it finishes.
    ///
    /// A new task shares `env` where it can (see ``frame(_:from:)``); one started in a
    /// finished task (see ``SpareTasks``) gets an array of its own, the one that task kept where
    /// it has one (see ``SagaTask/ownsVariables``), so that its writes copy nothing and its end
    /// frees nothing.
    ///
    /// Where the parent's code runs on over its variables while the child starts
    /// (`sharesFrame` false: a ``Code/Instruction/forkBlock(site:)``), the child's frame is a
    /// copy.
    func newTask(
        name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask, running code: Code,
        frame size: Int, in env: [Value], sharesFrame: Bool = true
    ) -> SagaTask {
        taskTree.liveTasks += 1
        let id = makeID()
        guard let spare = taskTree.spareTasks.take() else {
            let frame = sharesFrame ? Self.frame(size, from: env) : Self.ownFrame(size, of: env, code)
            let task = SagaTask(
                id: id, name: name, location: location, kind: kind, parent: parent, env: frame, body: code)
            task.ownsVariables = !sharesFrame || size != env.count
            return task
        }
        var variables: [Value] = []
        if spare.fillVariables(count: size, from: env, code) {
            swap(&variables, &spare.env)
        } else {
            variables = Self.ownFrame(size, of: env, code)
        }
        spare.restart(id: id, name: name, location: location, kind: kind, parent: parent, env: variables, body: code)
        spare.ownsVariables = true
        return spare
    }

    /// The variables a `fork` or `spawn` block starts with: a copy of the first `size` slots of
    /// its parent's (``SagaLanguage/Block/frameSize``, or the whole frame when the block does
    /// not say).
    ///
    /// The whole frame is shared until either task writes to it; a prefix is a new array (none
    /// at all for a block that uses no variable), which the parent then does not copy at its
    /// next write. A parent that is itself a block's task may hold fewer slots than the block
    /// declares (its frame leaves out its nested blocks' own variables): the rest start null.
    static func frame(_ size: Int, from env: [Value]) -> [Value] {
        guard size < env.count else { return size > env.count ? padded(env, to: size) : env }
        return size == 0 ? [] : Array(env[..<size])
    }

    /// A new array of `size` slots for a task running `code`: those of `env` the code uses (see
    /// ``Code/copyCaptures(_:into:)``), nulls elsewhere.
    static func ownFrame(_ size: Int, of env: [Value], _ code: Code) -> [Value] {
        var frame = [Value](repeating: .null, count: size)
        // Not even looked at where nothing is copied: an empty array made mutable allocates.
        if size == 0 || code.captureCount == 0 { return frame }
        frame.withUnsafeMutableBufferPointer { slots in
            env.withUnsafeBufferPointer { code.copyCaptures($0, into: slots) }
        }
        return frame
    }

    /// `env` with nulls after it, `size` slots in all.
    @inline(never)
    static func padded(_ env: [Value], to size: Int) -> [Value] {
        var frame = env
        frame.append(contentsOf: repeatElement(.null, count: size - env.count))
        return frame
    }

    /// A task that runs `effect` over `env`, which it shares, and returns its value (see
    /// ``Code/init(effectTask:at:slotCount:callShapes:)``): entry `entry` of the statement
    /// running where it stands (see ``runningSite``).
    ///
    /// `id` is the task's number, taken beforehand, or `nil` to take the next.
    func effectTask(
        _ effect: Effect, at location: SourceLocation, entry: Int, name: String, kind: SagaTask.Kind,
        parent: SagaTask, env: [Value], id: Int? = nil
    ) -> SagaTask {
        let code = codeStore.code(
            ofEffect: effect, at: location, slotCount: env.count, site: runningSite, entry: entry,
            callShapes: callShapes)
        taskTree.liveTasks += 1
        return makeTask(
            id: id ?? makeID(), name: name, location: location, kind: kind, parent: parent, env: env, code: code)
    }

    /// A task that runs `code`, which the caller counts as alive.
    ///
    /// It is one that has finished, restarted, where one is kept (see ``SpareTasks``), or a new
    /// one.
    @inline(__always)
    func makeTask(
        id: Int, name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value],
        code: Code
    ) -> SagaTask {
        guard let spare = taskTree.spareTasks.take() else {
            return SagaTask(id: id, name: name, location: location, kind: kind, parent: parent, env: env, body: code)
        }
        spare.restart(id: id, name: name, location: location, kind: kind, parent: parent, env: env, body: code)
        return spare
    }

    /// The code of a body that runs over `slotCount` variables (see ``CodeStore``).
    func code(of body: Block, slotCount: Int) -> Code {
        codeStore.code(of: body, slotCount: slotCount, callShapes: callShapes)
    }

    /// Checks that `count` more tasks may start (`--max-tasks`).
    func reserveTasks(_ count: Int) throws(SagaError) {
        if let watch = budget.memoryWatch, watch.isExceeded { throw watch.error }
        guard taskTree.liveTasks + count > options.maxTasks else { return }
        throw SagaError(
            kind: "RangeError",
            message: "more than \(options.maxTasks) tasks would be alive at once; raise the limit with --max-tasks")
    }

    /// The error for a channel whose buffer is full: a `fixed` one's, or `--max-buffer`.
    func bufferOverflow(_ channel: Channel) -> SagaError {
        if channel.kind == .fixed, channel.isFull, let limit = channel.limit {
            return SagaError(kind: "RangeError", message: "the channel's fixed buffer of \(limit) is full")
        }
        return SagaError(
            kind: "RangeError",
            message: "a channel's buffer would hold more than \(options.maxBuffer) messages; "
                + "raise the limit with --max-buffer")
    }
}
