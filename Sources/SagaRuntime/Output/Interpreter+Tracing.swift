import SagaCore
import SagaLanguage

extension Interpreter {
    /// Where an effect is and what it is (`file:3:5 (take "ping")`), for the trace: made the
    /// first time an effect of its kind runs at its place, then read from
    /// ``effectDescriptions``.
    func effectDescription(_ effect: Effect) -> TracedEffect {
        let location = effect.location
        let kind = Self.kindNumber(effect)
        if let known = effectDescriptions[location], let found = known.first(where: { $0.kind == kind }) {
            return found.effect
        }
        let dump = ASTDump(functionNames: program.functions.map(\.name))
        let described = TracedEffect("\(describe(location)) \(dump.render(effect))")
        effectDescriptions[location, default: []].append((kind, described))
        return described
    }

    /// A number for each kind of effect: two effects of one kind do not begin at one place.
    private static func kindNumber(_ effect: Effect) -> Int {
        switch effect {
        case .take: 0
        case .put: 1
        case .select: 2
        case .call: 3
        case .fork: 4
        case .spawn: 5
        case .join: 6
        case .cancel: 7
        case .delay: 8
        case .race: 9
        case .allRecord: 10
        case .allList: 11
        case .allFor: 12
        case .retry: 13
        case .channel: 14
        case .actionChannel: 15
        case .watcher: 16
        case .close: 17
        case .flush: 18
        }
    }

    /// Records that `task` blocks on `wait`.
    func traceBlock(_ task: SagaTask, _ wait: Wait) {
        guard let trace = tracer else { return }
        trace.track(task.id, task.name)
        // A `put` processed on the spot that then waits begins where it was made, before the
        // action and what it woke.
        let putStamp = self.putStamp
        self.putStamp = nil
        // The usual slices, whose only argument is their effect, need no record.
        switch wait {
        case .none: return
        case .take: return traceSlice(task, "take" as StaticString, trace, stamp: nil)
        case .channel: return traceSlice(task, "take channel" as StaticString, trace, stamp: nil)
        case .put: return traceSlice(task, "put" as StaticString, trace, stamp: putStamp)
        case .timer: return traceSlice(task, "delay" as StaticString, trace, stamp: nil)
        case .host: return traceSlice(task, "call" as StaticString, trace, stamp: nil)
        default: break
        }
        let name: String
        var args = Record()
        switch wait {
        case .none, .take, .channel, .put, .timer, .host: return
        case .task(let owned):
            name = owned.name.hasPrefix("func ") ? "call" : owned.name
            args["task"] = .string(owned.name)
        case .combinator(let c):
            name = c.kind == .race ? "race" : "all"
            if !c.keys.isEmpty { args["keys"] = .list(c.keys.map { .string($0) }) }
        case .join(let state):
            name = "join"
            args["tasks"] = .list(state.tasks.map { .int($0.id) })
        case .joinOne(let t):
            name = "join"
            args["tasks"] = .list([.int(t.id)])
        }
        task.traceOpen = true
        if let effect = task.tracedEffect { args["effect"] = .string(effect.text) }
        trace.begin(task.id, name, .record(args), at: clock.now)
    }

    /// A slice whose only argument is its effect (`{"effect": "…"}`), written without a record;
    /// `stamp` as in ``ChromeTrace/begin(_:_:argument:json:at:stamp:)``.
    private func traceSlice(_ task: SagaTask, _ name: StaticString, _ trace: ChromeTrace, stamp: Int?) {
        task.traceOpen = true
        guard let effect = task.tracedEffect else {
            trace.begin(task.id, name, .record(Record()), at: clock.now, stamp: stamp)
            return
        }
        trace.begin(task.id, name, argument: "effect", json: effect.json, at: clock.now, stamp: stamp)
    }

    /// Records that `task` no longer blocks (woken, cancelled or aborted).
    func traceUnblock(_ task: SagaTask) {
        guard let trace = tracer, task.traceOpen else { return }
        task.traceOpen = false
        trace.end(task.id, at: clock.now)
    }

    /// Notes the effect of a statement that runs it directly (not through `runEffect`), for
    /// the trace's description of what the task waits on.
    func traceEffect(of stmt: Stmt, _ task: SagaTask) {
        if let effect = Compiler.effect(of: stmt) { task.tracedEffect = effectDescription(effect) }
    }

    /// Notes the effect of a statement of running code, for the trace: described the first
    /// time the statement runs, then kept with it.
    func traceEffect(at site: Code.Site, _ task: SagaTask) {
        if site.tracedEffect == nil {
            guard let effect = Compiler.effect(of: site.statement) else { return }
            site.tracedEffect = effectDescription(effect)
        }
        task.tracedEffect = site.tracedEffect
    }

    /// Records a `put` whose action was processed on the spot and which did not wait: an
    /// instant of its task rather than a slice, at `stamp` (taken when it was made, so that
    /// the action's own instant follows it).
    func tracePutAtOnce(_ task: SagaTask, stamp: Int) {
        guard let trace = tracer else { return }
        trace.track(task.id, task.name)
        trace.instant("put" as StaticString, tid: task.id, at: clock.now, stamp: stamp)
    }

    /// Records a `put` processed on the spot by the task numbered `id`, named `name` (a
    /// `fork` block that runs in its parent's turn has no task of its own).
    func tracePutAtOnce(_ id: Int, _ name: String) {
        guard let trace = tracer else { return }
        trace.track(id, name)
        trace.instant("put" as StaticString, tid: id, at: clock.now)
    }

    /// Records a `call` of a saga function, which runs in the caller's task.
    func traceCall(_ task: SagaTask, _ index: Int, _ args: [Value]) {
        guard let trace = tracer else { return }
        trace.track(task.id, task.name)
        trace.instant(
            "call", tid: task.id, ["function": .string(program.functions[index].name), "args": .list(args)],
            at: clock.now)
    }

    /// Records a fork, spawn or watcher start.
    func traceStart(_ child: SagaTask, from parent: SagaTask) {
        traceStart(child.id, child.name, spawned: child.kind == .detached, from: parent)
    }

    /// Records the start of the task numbered `id`, named `name`, by `parent` (or of a
    /// `fork` block that runs in its parent's turn, which has no task of its own).
    func traceStart(_ id: Int, _ name: String, spawned: Bool, from parent: SagaTask) {
        guard let trace = tracer else { return }
        trace.track(parent.id, parent.name)
        trace.track(id, name)
        trace.flow(from: parent.id, to: id, spawned ? "spawn" : "fork", at: clock.now)
    }

    /// Records a dispatched action.
    func traceAction(_ action: Value) {
        guard let trace = tracer else { return }
        // An action's type read where it is (a type alone is kept as its string).
        var type = "action"
        if case .record(let r) = action, let t = r.actionType { type = t }
        trace.action(action, type: type, at: clock.now)
    }

    /// Records an uncaught error of a task.
    func traceError(_ task: SagaTask, _ failure: Failure) {
        guard let trace = tracer else { return }
        trace.track(task.id, task.name)
        trace.instant(
            "error", tid: task.id, ["error": failure.error.value, "stack": .list(failure.trace.map { .string($0) })],
            at: clock.now)
    }
}
