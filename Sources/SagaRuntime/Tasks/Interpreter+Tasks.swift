import SagaCore
import SagaLanguage

// A task made for a body, its code compiled once (see `CodeStore`) and the task made by the
// `TaskTree`; and the limit that keeps a hostile or buggy program from taking the whole
// machine with tasks, a `RangeError` that names the flag that raises it.

extension Interpreter {
    /// Makes a task that runs `body`, and counts it as alive until it finishes (see
    /// ``TaskTree/newTask(name:location:kind:parent:env:code:)``).
    func newTask(
        name: String, location: SourceLocation, kind: SagaTask.Kind, parent: SagaTask?, env: [Value], body: Block
    ) -> SagaTask {
        taskTree.newTask(
            name: name, location: location, kind: kind, parent: parent, env: env,
            code: code(of: body, slotCount: env.count))
    }

    /// Makes a task that runs `code`, a `fork`'s or `spawn`'s block, over its frame of `env` (the
    /// first `size` slots), and counts it as alive until it finishes.
    ///
    /// A new task shares `env` where it can (see ``TaskTree/frame(_:from:)``); one started in a
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
        let id = taskTree.makeID()
        guard let spare = taskTree.spareTasks.take() else {
            let frame = sharesFrame ? TaskTree.frame(size, from: env) : TaskTree.ownFrame(size, of: env, code)
            let task = SagaTask(
                id: id, name: name, location: location, kind: kind, parent: parent, env: frame, body: code)
            task.ownsVariables = !sharesFrame || size != env.count
            return task
        }
        var variables: [Value] = []
        if spare.fillVariables(count: size, from: env, code) {
            swap(&variables, &spare.env)
        } else {
            variables = TaskTree.ownFrame(size, of: env, code)
        }
        spare.restart(id: id, name: name, location: location, kind: kind, parent: parent, env: variables, body: code)
        spare.ownsVariables = true
        return spare
    }

    /// A task that runs `effect` over `env`, which it shares, and returns its value (see
    /// ``Code/init(effectTask:at:slotCount:returnedValues:)``): entry `entry` of the statement
    /// running where it stands (see ``runningSite``).
    ///
    /// `id` is the task's number, taken beforehand, or `nil` to take the next.
    func effectTask(
        _ effect: Effect, at location: SourceLocation, entry: Int, name: String, kind: SagaTask.Kind,
        parent: SagaTask, env: [Value], id: Int? = nil
    ) -> SagaTask {
        let code = codeStore.code(
            ofEffect: effect, at: location, slotCount: env.count, site: runningSite, entry: entry,
            returnedValues: returnedValues)
        taskTree.liveTasks += 1
        return taskTree.makeTask(
            id: id ?? taskTree.makeID(), name: name, location: location, kind: kind, parent: parent, env: env,
            code: code)
    }

    /// The code of a body that runs over `slotCount` variables (see ``CodeStore``).
    func code(of body: Block, slotCount: Int) -> Code {
        codeStore.code(of: body, slotCount: slotCount, returnedValues: returnedValues)
    }

    /// Checks that `count` more tasks may start (`--max-tasks`).
    func reserveTasks(_ count: Int) throws(SagaError) {
        if let watch = budget.memoryWatch, watch.isExceeded { throw watch.error }
        guard taskTree.liveTasks + count > options.maxTasks else { return }
        throw SagaError(
            kind: "RangeError",
            message: "more than \(options.maxTasks) tasks would be alive at once; raise the limit with --max-tasks")
    }
}
