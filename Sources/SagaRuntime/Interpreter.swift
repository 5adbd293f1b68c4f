import SagaCore
import SagaLanguage
import SagaStore

/// Runs a checked `Program`: its reducers inside a Redux `Store` and its sagas as tasks
/// of one deterministic scheduler (see “Tasks and the order of events” in Sagas/README.md).
///
/// ```swift
/// let result = Frontend().compile(path: "counter.saga")
/// if let program = result.program {
///     let output = BufferedOutput()
///     let interpreter = Interpreter(program: program, options: .init(virtualTime: true), output: output)
///     let status = await interpreter.run(input: InputSource(lines: [#"{"type":"counter/request","by":2}"#]))
///     print(output.text, status)
/// }
/// ```
///
/// The scheduler runs exactly one task at a time. Work that a task causes for others (a
/// forked child to start, a taker to resume, a cancelled task to unwind) goes to the front
/// of the ready queue, ahead of the task that caused it: the same order as redux-saga's
/// nested calls, without growing the machine stack.
///
/// Its scheduler fields opt out of dynamic exclusivity checking, as `SagaTask`'s do: only
/// the scheduler touches them, never with overlapping accesses.
public final class Interpreter {
    /// How a run behaves and what it prints.
    public struct Options: Sendable {
        /// Deterministic scheduling on a virtual clock (see “Events and time” in
        /// Sagas/README.md).
        public var virtualTime: Bool
        /// A transcript line `action <json>` per processed action.
        public var printActions: Bool
        /// A last transcript line `state <json>`.
        public var printState: Bool
        /// Prefix each transcript line with `@<ms> `.
        public var timestamps: Bool
        /// Failure injection: the `call` with this number (0 for the first the run makes)
        /// throws an `InjectedFailure` instead of running.
        public var failingCall: Int?
        /// Failure injection: how many times each compensation runs (2 shows whether it is
        /// idempotent).
        public var compensationRuns = 1
        /// How many steps a task (or one reducer run) may take without waiting before it fails
        /// with a `RangeError`: a `loop {}` that never waits (of `select`s, or of `call`s that
        /// return without waiting) must not hang the program forever.
        ///
        /// A `call` does not wait by itself: the function's steps count on from the caller's,
        /// and when it returns or fails, the caller's go on from the function's (since it last
        /// waited), whether the function runs in the caller's task or in a task of its own.
        ///
        /// The task is never preempted before that (a task runs until it blocks: see “Tasks
        /// and the order of events” in Sagas/README.md), so ordering does not depend on this
        /// limit.
        public var maxSteps = 100_000_000
        /// How deeply `call`s may nest (a function calling itself without end fails with a
        /// `RangeError` instead of taking all memory; calls never grow the machine stack).
        public var maxCallDepth = 1_000_000
        /// How many tasks may be alive at once; a `fork`, `spawn`, `call`, `race` or `all`
        /// that would start more fails with a `RangeError`.
        public var maxTasks = 10_000_000
        /// How many messages a channel may buffer; a `put` to a full unbounded channel fails
        /// with a `RangeError` (a buffer of a given size drops instead: see
        /// “Channels” in Sagas/README.md).
        public var maxBuffer = 1_000_000
        /// How long a list (in elements) or a string (in UTF-8 bytes) that `+`, interpolation
        /// or a built-in builds may be.
        ///
        /// Whatever it is set to, a list has at most `Value.maxListCount` elements and a
        /// string at most `Value.maxTextBytes` bytes.
        public var maxLength = Value.maxListCount
        /// If set, a task that has run this many steps without blocking yields to the other
        /// ready tasks (it goes to the back of the ready queue), so a busy loop cannot starve
        /// them.
        ///
        /// Off by default: a task runs until it blocks (see “Tasks and the order of events” in
        /// Sagas/README.md), and yielding changes the order other tasks can observe.
        /// ``maxSteps`` still fails such a task.
        public var yieldAfterSteps: Int?
        /// How many steps the whole run may take, every task and reducer together, effects or
        /// not; `nil` (the default) for no limit.
        ///
        /// Past it the run stops with an error instead of going on: for fuzzing and sandboxes,
        /// where a program that never ends (`loop { delay 1s }` on the virtual clock, `loop {
        /// put {type: "x"} }`) must.
        public var maxRunSteps: Int?
        /// How many turns the run may take on its own, with no input line, host answer, event
        /// channel message or real wait in between, before it stops with an error; `nil` (the
        /// default) for no limit.
        ///
        /// A turn is a task resumed or an action processed. A program that only feeds itself
        /// (`every "x" as a { put "x" }`, or `loop { delay 1s }` on the virtual clock) would
        /// otherwise never end. `sagarun run` sets it to 10,000,000.
        public var maxTurnsWithoutInput: Int?
        /// How much memory (in bytes) the process may hold while the program runs; `nil` (the
        /// default) for no limit.
        ///
        /// What is measured is the process's resident set, read every few milliseconds: the
        /// values, tasks and buffers of every run in the process, and anything else it holds.
        /// Once past it, the next task started, long list or string built, or turn fails with a
        /// `RangeError` and the run stops. `sagarun run` sets it to 1 GiB.
        public var maxMemory: Int?
        /// Whether the run takes its short cuts (for tests).
        ///
        /// They are actions processed on the spot and children's first turns taken at once,
        /// with the blocks run in their parent's turn (see Sources/SagaRuntime/README.md). Each does what
        /// the statements as written do, so a run shows the same either way; tests and fuzzers
        /// turn them off to hold a run against the statements as written. No command sets it.
        @_spi(Testing) public var shortCuts = true

        /// Creates options; everything is off unless named.
        public init(
            virtualTime: Bool = false, printActions: Bool = false, printState: Bool = false, timestamps: Bool = false
        ) {
            self.virtualTime = virtualTime
            self.printActions = printActions
            self.printState = printState
            self.timestamps = timestamps
        }
    }

    let program: Program
    let options: Options
    let output: RunOutput
    let host: HostFunctions
    let clock: SchedulerClock
    /// The store the sagas run over.
    let binding: SagaStoreBinding
    let reducers: ReducerRunner
    /// The machine every task's code and every reducer runs on (the reducers' own).
    let vm: VM
    /// `func NAME` for each function of the program, by index: a `call` names its task
    /// without building a string.
    let functionTaskNames: [String]
    /// What each function returns when a call's code computes it (see
    /// ``Code/returnedValues(of:)``).
    let returnedValues: [Expr?]
    /// How many variable slots each function's frame has.
    let frameSizes: [Int]
    /// The state a saga's compiled code runs over: the store's while a `select` computes its
    /// expression (see ``Code/Instruction/selectState(site:)``), null otherwise; kept here so
    /// that no run makes and destroys one.
    @exclusivity(unchecked) var noState = Value.null
    /// The operands of an effect that has none: kept, so that a statement without operands
    /// neither makes nor destroys any.
    @exclusivity(unchecked) var noOperands = EffectOperands()
    /// Room for the temporaries of a `take`'s condition while it is tested.
    let expressionRoom = ExpressionRoom()
    /// Room for the temporaries of a `fork` block while it runs in its parent's turn (see
    /// ``runInline(_:frame:parent:at:)``).
    let bodyRoom = ExpressionRoom()
    /// Set while a `fork` block runs in its parent's turn (see ``InlineBodies``).
    @exclusivity(unchecked) var runsInline = false
    /// The frame of the last block that ended in its parent's turn, its slots null, for the
    /// next one to fill (see ``runInline(_:frame:parent:at:)``).
    @exclusivity(unchecked) var spareFrame: [Value] = []
    /// The handlers of the `try`s a block running in its parent's turn stands in, innermost
    /// last: they go to its task if it gets one (see ``runInline(_:frame:parent:at:)``), and
    /// are empty otherwise.
    @exclusivity(unchecked) var inlineHandlers: [Code.Handler] = []
    /// The handle of a stand-in for blocks that ended in their parent's turn (see
    /// ``endedBodyHandle(_:at:)``), made once.
    @exclusivity(unchecked) var endedBody: Value?
    /// The stand-in task of ``endedBody``, told apart by its identity.
    @exclusivity(unchecked) var endedBodyObject: ObjectIdentifier?
    /// The code of each body a task has run (see ``code(of:slotCount:)``).
    @exclusivity(unchecked) var codeStore = CodeStore()

    /// The `Store<Value, Value>` the program's reducers run in, unless the interpreter runs
    /// over an app's own store.
    public var store: Store<Value, Value>? { (binding as? ValueStoreBinding)?.store }

    /// The state as sagas see it.
    public var state: Value { binding.stateValue }

    /// The scheduler middleware uses for asynchronous work (the persistence middleware's
    /// I/O): the work runs off the scheduler, counts as in flight, and the actions it returns
    /// join the dispatch queue when it completes (in start order under virtual time).
    public var asyncWork: some AsyncWorkScheduler<Value> { AsyncWork(table: hostCalls) }

    /// The run queues, the dispatch queue and the tasks waiting for actions, messages and timers.
    let scheduler: Scheduler
    /// The run's tasks: its roots, who forked whom, how a task ends or is cancelled.
    let taskTree: TaskTree
    var hostCalls: HostCallTable
    /// What event channels' hosts have sent, not yet delivered.
    let eventInbox: EventInbox
    /// The event channels of the run (see ``EventChannelTable``).
    @exclusivity(unchecked) var eventChannels = EventChannelTable()
    /// Root sagas and spawned tasks that failed.
    @exclusivity(unchecked) var failures = 0
    /// Set while the interpreter has the store process one of its own dispatch entries, so
    /// that the saga middleware can tell those from an app's own dispatches.
    @exclusivity(unchecked) var processingOwnEntry = false
    /// What ``stop()`` sets, from any thread.
    package let stopRequest: StopRequest
    /// Whether ``stop()`` was called.
    var stopRequested: Bool { stopRequest.isAsked }
    /// How many steps a task that does not wait takes between two looks for a stop.
    @exclusivity(unchecked) var stopCheckPace = StopCheckPace()

    /// A task that has not waited for a while looks for a stop asked for and at the memory
    /// budget: whether it should pause for the run loop to stop the run.
    func looksForStop() -> Bool {
        stopCheckPace.look()
        return stopRequested || budget.isOverMemory
    }
    /// Set once a stop has cancelled the root sagas: the work that runs from then on (their
    /// `finally` blocks) runs to its end, where before it a stop ends the turn at once.
    @exclusivity(unchecked) var rootsStopped = false
    /// Set once END has come (no input, timer or host call can bring an action): a `take` of
    /// actions started from then on ends at once (see ``addTaker(_:)``).
    @exclusivity(unchecked) var endReached = false
    /// Set while a saga written in Swift is runnable or between two effects: its Swift task
    /// runs apart from the scheduler, so an app's own dispatch meanwhile is held in
    /// ``Scheduler/heldActions``.
    ///
    /// Otherwise it would pass the saga's next `take` by.
    @exclusivity(unchecked) var nativePending = false
    /// Set while ``runUntilIdle()`` runs (so that the store's idle hook does not re-enter it).
    @exclusivity(unchecked) var inTurn = false
    /// Set when the store calls ``takeOutsideTurn()`` each time it is idle (an app's store, see
    /// ``SagaMiddleware``): the tasks an app's own dispatch wakes then run there.
    @exclusivity(unchecked) var takesOutsideTurns = false
    /// The run's steps, turns on its own and memory, against their limits.
    @exclusivity(unchecked) var budget: RunBudget
    /// The statement a task runs where it stands, while it runs (see ``runCode(_:_:)``): where
    /// its effect keeps the code of the bodies it runs as tasks (see ``Code/Site/effectTasks``).
    @exclusivity(unchecked) unowned(unsafe) var runningSite: Code.Site?
    /// How many entries of `race` and `all` are taking their first turn at once, one inside
    /// another (see ``startCombinator(_:_:_:_:_:oneEffect:)``).
    @exclusivity(unchecked) var turnsAtOnce = 0
    /// How many tasks wait for their turn while the child they forked takes its first turn at
    /// once (see ``runFirstTurn(parentWaits:_:)``), or the entries after one of a `race` or `all` taking its
    /// first turn at once wait to start: the run loop would run them before a `put`'s action,
    /// which is then not processed on the spot.
    @exclusivity(unchecked) var parentsWaiting = 0
    /// Set while a `fork` or `spawn` statement runs whose child takes its first turn at once
    /// where it can (see ``Code/Site/childTakesTurnAtOnce``).
    @exclusivity(unchecked) var childTakesTurnAtOnce = false
    /// Set while a `fork` statement runs after which its task's code only goes back to a
    /// `take` (see ``Code/Site/takesNext``).
    @exclusivity(unchecked) var forkTakesNext = false
    /// The task whose next turn, back to its `take`, comes first in the run order while the
    /// body it forked takes its first turn.
    ///
    /// Set, with the token it had, while the body runs in the turn of a task whose code only
    /// takes after its `fork` (see ``runFirstTurnBeforeTake(_:_:_:)``). Its turn is taken there,
    /// not queued: before a `put` of the body is processed on the spot, or once the body's turn
    /// is over. Held unretained: the task's turn, on the stack below, holds it.
    @exclusivity(unchecked) var pendingRetake: Unmanaged<SagaTask>?
    @exclusivity(unchecked) var pendingRetakeToken = 0
    /// How the ``pendingRetake`` task's code goes back to its `take` (the ``Code/Site/nextTake``
    /// of the `fork` it ran), which its turn takes (see ``continueToTake(_:_:)``).
    @exclusivity(unchecked) var pendingTake: (pc: Int32, take: Int32, steps: Int32) = (-1, -1, 0)
    /// Whether the run was stopped by one of its limits (`--max-run-steps`,
    /// `--max-turns-without-input`, `--max-memory`).
    package var stoppedByLimit: Bool { budget.isSpent }
    /// Whether each action processed is counted against the limit of turns on its own, or
    /// printed.
    let notesEachAction: Bool
    /// How many turns the real-time run loop has taken: each waits for something to happen,
    /// so a loop that spins shows here (for tests).
    @exclusivity(unchecked) var realTimeTurns = 0
    /// Set once ``run(input:isolation:)`` or ``start(isolation:)`` has started the root
    /// sagas; never cleared, as an interpreter runs once.
    @exclusivity(unchecked) var started = false

    /// Whether ``run(input:isolation:)`` has started and not yet been stopped.
    public var isRunning: Bool { started && !stopRequested }
    /// How many `call` effects the run has made (failure injection numbers them).
    @exclusivity(unchecked) public internal(set) var callsMade = 0
    /// The message of each uncaught error the run reported (a failed root saga or spawned
    /// task), in order: a command that sums up the run afterwards does not repeat them.
    @exclusivity(unchecked) package internal(set) var reportedErrorMessages: [String] = []
    /// The call that ``Options/failingCall`` made fail, once it has: its function and where
    /// it is called (`api.charge at order.saga:12:5`).
    @exclusivity(unchecked) package internal(set) var injectedFailureCall: String?
    /// Where each compensation that ran was registered (`file:line:column`), in order.
    @exclusivity(unchecked) public internal(set) var compensationsRun: [String] = []
    /// Where the run's trace goes (`--trace`), if anywhere.
    public var tracer: ChromeTrace? {
        get { runTrace?.file }
        set { runTrace = newValue.map { RunTrace($0, program: program, clock: clock) } }
    }
    /// The trace of what the run's tasks do, while one is asked for (see ``tracer``).
    @exclusivity(unchecked) var runTrace: RunTrace?
    /// Root sagas written in Swift, started after the program's own, in the order added.
    @exclusivity(unchecked) var nativeRoots: [(String, NativeSaga)] = []
    /// The calls whose mocks line never answers, with the task that made each (and its token
    /// then): the run warns of those still waiting when it ends.
    @exclusivity(unchecked) var neverAnswered: [(task: SagaTask, token: Int, id: Int)] = []

    /// Creates an interpreter for a program.
    ///
    /// - Parameters:
    ///   - program: a program the checker accepted.
    ///   - options: scheduling and printing.
    ///   - host: the functions sagas may `call` besides their own.
    ///   - middleware: the store's middleware (the persistence middleware, say), outermost first.
    ///   - extraReducers: reducers that run after the program's own, in order (the persistence
    ///     reducer, say).
    ///   - output: where the transcript and error reports go.
    public convenience init(
        program: Program, options: Options = Options(), host: HostFunctions = HostFunctions(),
        middleware: [Middleware<Value, Value>] = [], reducers extraReducers: [(inout Value, Value) -> Void] = [],
        output: RunOutput
    ) {
        let reducers = ReducerRunner(program: program, output: output, extra: extraReducers)
        let initial: Value
        switch reducers.initialState() {
        case .success(let value):
            initial = value
        case .failure(let error):
            initial = .record(Record())
            output.error("error: the initial state failed: \(error.message)")
        }
        // The saga middleware is outermost: it sees each action after every other middleware
        // and the reducers have run. It reaches the interpreter through a box because the
        // store is made before the interpreter exists.
        let box = InterpreterBox()
        let sagaMiddleware = Middleware<Value, Value> { _, next in
            { action in
                box.with { $0.actionWillReduce(action) }
                next(action)
                box.with { $0.actionReduced(action) }
            }
        }
        let binding = ValueStoreBinding(
            store: Store(
                initialState: initial,
                reducer: { state, action in reducers.reduce(&state, action) },
                middleware: [sagaMiddleware] + middleware),
            box: box, others: middleware)
        self.init(program: program, binding: binding, reducers: reducers, options: options, host: host, output: output)
    }

    /// Creates an interpreter whose sagas run over another store, through `binding` (an app's
    /// own store: see ``SagaMiddleware``).
    ///
    /// The program's own `state` and reducers are not used there: the app's reducer owns the
    /// state.
    public convenience init(
        program: Program, binding: SagaStoreBinding, options: Options = Options(),
        host: HostFunctions = HostFunctions(),
        output: RunOutput
    ) {
        if program.initialState != nil || !program.reducers.isEmpty {
            output.error("warning: the program's state and reducers are not used over an app's store")
        }
        self.init(
            program: program, binding: binding, reducers: ReducerRunner(program: program, output: output),
            options: options,
            host: host, output: output)
    }

    /// The setup both public initialisers share.
    private init(
        program: Program, binding: SagaStoreBinding, reducers: ReducerRunner, options: Options, host: HostFunctions,
        output: RunOutput
    ) {
        self.program = program
        self.functionTaskNames = program.functions.map { "func \($0.name)" }
        self.returnedValues = Code.returnedValues(of: program.functions)
        self.frameSizes = program.functions.map { max($0.slotCount, $0.parameters.count) }
        self.options = options
        self.output = output
        self.host = host
        self.clock = options.virtualTime ? VirtualClock() : RealClock()
        self.hostCalls = HostCallTable(inCallOrder: options.virtualTime)
        self.eventInbox = EventInbox(wake: hostCalls.inbox)
        self.stopRequest = StopRequest(waking: hostCalls.inbox)
        self.budget = RunBudget(options)
        self.notesEachAction = options.printActions || options.maxTurnsWithoutInput != nil
        reducers.vm.maxSteps = options.maxSteps
        reducers.vm.maxLength = options.maxLength
        self.reducers = reducers
        self.vm = reducers.vm
        self.binding = binding
        let scheduler = Scheduler()
        self.scheduler = scheduler
        self.taskTree = TaskTree(scheduler: scheduler)
        taskTree.attach(to: self)
    }

    /// Prints the action line, when asked for, as its queue entry is processed.
    @inline(__always)
    func actionWillReduce(_ action: Value) {
        if _slowPath(notesEachAction || runTrace != nil) { actionWillReduceNoted(action) }
    }

    /// ``actionWillReduce(_:)`` when the action is printed or traced, or counted against the
    /// limit of turns on its own.
    private func actionWillReduceNoted(_ action: Value) {
        if let overrun = budget.countTurnWithoutInput() { overran(overrun) }
        if options.printActions { emit("action " + action.canonicalJSON) }
        if let runTrace { runTrace.action(action) }
    }

    /// Writes a transcript line, with its timestamp when asked for: on each of its lines, when
    /// the text has several (`log "a\nb"`).
    func emit(_ line: String) {
        defer { if output.isFull { stop() } }
        guard options.timestamps else { return output.transcript(line) }
        let stamp = "@\(clock.now) "
        guard line.utf8.contains(UInt8(ascii: "\n")) else { return output.transcript(stamp + line) }
        output.transcript(
            line.split(separator: "\n", omittingEmptySubsequences: false).map { stamp + $0 }.joined(separator: "\n"))
    }

    /// The saga stack of an error raised in `task` at `location` (see ``SagaStack``).
    func trace(_ task: SagaTask, at location: SourceLocation) -> [String] {
        SagaStack.lines(of: task, at: location, in: program)
    }

    /// `file:line:column` of a location.
    func describe(_ location: SourceLocation) -> String { program.place(of: location) }

    /// Reports a failed root saga or spawned task, or a task that failed while cancelled where
    /// nothing waits for it (see “Errors and tasks” in Sagas/README.md), as `what` when given,
    /// and counts it for the exit code.
    func report(_ task: SagaTask, _ failure: Failure, what: String? = nil) {
        failures += 1
        reportedErrorMessages.append(failure.error.message)
        if let runTrace { runTrace.error(task, failure) }
        // A root saga by its declared name (`saga main`); a spawned task as what it runs
        // (`spawned func fetch`, `spawned block`), which no one would take for a saga.
        let what =
            what
            ?? (task.kind == .root
                ? "saga " + task.name.trimmingPrefix("saga ") : "spawned " + task.name.trimmingPrefix("spawn "))
        output.error(Self.withStack("error: \(what) failed: \(failure.error.message)", failure))
    }

    /// `head`, then the failure's stack, a line a frame.
    static func withStack(_ head: String, _ failure: Failure) -> String {
        var text = head
        for line in failure.trace { text += "\n    " + line }
        return text
    }
}
