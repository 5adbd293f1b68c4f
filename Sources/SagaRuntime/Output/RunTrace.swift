import SagaCore
import SagaLanguage

/// What a run's tasks do, as a Chrome trace (`sagarun run --trace FILE`): a track a task,
/// with a slice for each wait, an instant for each `put` processed on the spot, `call` and
/// error, a flow for each `fork` and `spawn`, and each dispatched action.
///
/// The interpreter holds one only while a trace is asked for: each hook on its path is one
/// test of that reference, so that a traced run takes the same steps as an untraced one. The
/// hooks are out of line, so that an untraced run's code holds the test alone.
final class RunTrace {
    /// The file the events go to.
    let file: ChromeTrace
    private let program: Program
    private let clock: SchedulerClock
    /// Each effect's description, made once, by where it is and its kind (see
    /// ``effectDescription(_:)``).
    private var effectDescriptions: [SourceLocation: [(kind: Int, effect: TracedEffect)]] = [:]
    /// When a `put` processed on the spot leaves its putter waiting, the timestamp its slice
    /// begins at (taken before the action was processed).
    var putStamp: Int?

    init(_ file: ChromeTrace, program: Program, clock: SchedulerClock) {
        self.file = file
        self.program = program
        self.clock = clock
    }

    /// The timestamp of the present moment, for an event written later (see ``putStamp``).
    func stamp() -> Int { file.timestamp(clock.now) }

    /// Where an effect is and what it is (`file:3:5 (take "ping")`): made the first time an
    /// effect of its kind runs at its place, then read from ``effectDescriptions``.
    @inline(never)
    func effectDescription(_ effect: Effect) -> TracedEffect {
        let location = effect.location
        let kind = Self.kindNumber(effect)
        if let known = effectDescriptions[location], let found = known.first(where: { $0.kind == kind }) {
            return found.effect
        }
        let dump = ASTDump(functionNames: program.functions.map(\.name))
        let described = TracedEffect("\(program.place(of: location)) \(dump.render(effect))")
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
    @inline(never)
    func block(_ task: SagaTask, _ wait: Wait) {
        file.track(task.id, task.name)
        // A `put` processed on the spot that then waits begins where it was made, before the
        // action and what it woke.
        let putStamp = self.putStamp
        self.putStamp = nil
        // The usual slices, whose only argument is their effect, need no record.
        switch wait {
        case .none: return
        case .take: return slice(task, "take" as StaticString, stamp: nil)
        case .channel: return slice(task, "take channel" as StaticString, stamp: nil)
        case .put: return slice(task, "put" as StaticString, stamp: putStamp)
        case .timer: return slice(task, "delay" as StaticString, stamp: nil)
        case .host: return slice(task, "call" as StaticString, stamp: nil)
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
        file.begin(task.id, name, .record(args), at: clock.now)
    }

    /// A slice whose only argument is its effect (`{"effect": "…"}`), written without a record;
    /// `stamp` as in ``ChromeTrace/begin(_:_:argument:json:at:stamp:)``.
    private func slice(_ task: SagaTask, _ name: StaticString, stamp: Int?) {
        task.traceOpen = true
        guard let effect = task.tracedEffect else {
            file.begin(task.id, name, .record(Record()), at: clock.now, stamp: stamp)
            return
        }
        file.begin(task.id, name, argument: "effect", json: effect.json, at: clock.now, stamp: stamp)
    }

    /// Records that `task` no longer blocks (woken, cancelled or aborted).
    @inline(never)
    func unblock(_ task: SagaTask) {
        guard task.traceOpen else { return }
        task.traceOpen = false
        file.end(task.id, at: clock.now)
    }

    /// Notes the effect of a statement that runs it directly (not through `runEffect`), for
    /// the description of what the task waits on.
    @inline(never)
    func noteEffect(of stmt: Stmt, _ task: SagaTask) {
        if let effect = Compiler.effect(of: stmt) { task.tracedEffect = effectDescription(effect) }
    }

    /// Notes the effect of a statement of running code: described the first time the
    /// statement runs, then kept with it.
    @inline(never)
    func noteEffect(at site: Code.Site, _ task: SagaTask) {
        if site.tracedEffect == nil {
            guard let effect = Compiler.effect(of: site.statement) else { return }
            site.tracedEffect = effectDescription(effect)
        }
        task.tracedEffect = site.tracedEffect
    }

    /// Records a `put` whose action was processed on the spot and which did not wait: an
    /// instant of its task rather than a slice, at `stamp` (taken when it was made, so that
    /// the action's own instant follows it).
    @inline(never)
    func putAtOnce(_ task: SagaTask, stamp: Int) {
        file.track(task.id, task.name)
        file.instant("put" as StaticString, tid: task.id, at: clock.now, stamp: stamp)
    }

    /// Records a `put` processed on the spot by the task numbered `id`, named `name` (a
    /// `fork` block that runs in its parent's turn has no task of its own).
    @inline(never)
    func putAtOnce(_ id: Int, _ name: String) {
        file.track(id, name)
        file.instant("put" as StaticString, tid: id, at: clock.now)
    }

    /// Records a `call` of the program's function number `index`.
    @inline(never)
    func call(_ task: SagaTask, _ index: Int, _ args: [Value]) {
        file.track(task.id, task.name)
        file.instant(
            "call", tid: task.id, ["function": .string(program.functions[index].name), "args": .list(args)],
            at: clock.now)
    }

    /// Records a fork, spawn or watcher start.
    @inline(never)
    func start(_ child: SagaTask, from parent: SagaTask) {
        start(child.id, child.name, spawned: child.kind == .detached, from: parent)
    }

    /// Records the start of the task numbered `id`, named `name`, by `parent` (or of a
    /// `fork` block that runs in its parent's turn, which has no task of its own).
    @inline(never)
    func start(_ id: Int, _ name: String, spawned: Bool, from parent: SagaTask) {
        file.track(parent.id, parent.name)
        file.track(id, name)
        file.flow(from: parent.id, to: id, spawned ? "spawn" : "fork", at: clock.now)
    }

    /// Records a dispatched action.
    @inline(never)
    func action(_ action: Value) {
        // An action's type read where it is (a type alone is kept as its string).
        var type = "action"
        if case .record(let r) = action, let t = r.actionType { type = t }
        file.action(action, type: type, at: clock.now)
    }

    /// Records an uncaught error of a task.
    @inline(never)
    func error(_ task: SagaTask, _ failure: Failure) {
        file.track(task.id, task.name)
        file.instant(
            "error", tid: task.id, ["error": failure.error.value, "stack": .list(failure.trace.map { .string($0) })],
            at: clock.now)
    }
}
