import SagaCore
import SagaLanguage

/// One saga task: a root saga, a forked or spawned block or function, a called function, or an
/// entry of `race`/`all`.
///
/// A blocked task is only this record (its frames, its variables and what it waits on): no
/// thread, no Swift `Task`.
///
/// Tasks are confined to the scheduler that made them; the `Sendable` conformance exists
/// only so that a task can sit inside a ``Value`` handle.
///
/// The mutable fields opt out of dynamic exclusivity checking (`@exclusivity(unchecked)`):
/// only the one scheduler touches them, never with overlapping accesses (the whole test suite
/// passes with the checks on), and the checks would be a large part of the interpreter's
/// work.
final class SagaTask: @unchecked Sendable {
    /// How a task relates to the one that started it.
    enum Kind {
        /// A root saga of the program.
        case root
        /// Attached to its parent by `fork` or a watcher: its failure aborts the parent, and
        /// the parent ends only after it.
        case attached
        /// Detached by `spawn`.
        case detached
        /// Run for a waiting owner (`call`, an entry of `race`/`all`, a compensation): its
        /// result or error goes to the owner.
        case owned
    }

    /// Where a task stands.
    enum Phase {
        /// Its body is running or able to run.
        case body
        /// Its body has ended; it waits for its attached children.
        case children
        /// Finished: see ``outcome``.
        case done
    }

    // Stored properties are laid out in declaration order, so they are grouped by size: the
    // one-byte fields fill the tails of the 12- and 9-byte ones instead of padding. A million
    // blocked tasks is a workload (`sagabench fork-wake`), so every word counts.

    /// Its number, for handles and traces.
    ///
    /// A variable for ``restart(id:name:location:kind:parent:env:body:)`` alone.
    @exclusivity(unchecked) private(set) var id: Int
    /// The task that started it (its parent for attached tasks; for the others, only for
    /// traces).
    ///
    /// Strong, so that a parent waiting only for its children stays alive; cleared when the
    /// task finishes, which breaks the cycle, unless it spawned a task (or is above one that
    /// did: ``keepsParent``), whose stack names it and those above it. A task's finished
    /// children leave its ``children`` once none runs, and all have by the time it finishes.
    @exclusivity(unchecked) var parent: SagaTask?
    /// The variables: one slot per variable of the declaration the body comes from.
    @exclusivity(unchecked) var env: [Value]
    /// The code the task runs: its body's, or that of a function it called inline (the
    /// caller's waits in a call frame, see ``Frame/call(_:)``); ``Code/none`` for a task the run
    /// left unfinished (see ``forgetLinks()``).
    ///
    /// It lives here rather than as a frame: a task that calls no function has no frames array
    /// at all.
    @exclusivity(unchecked) var code: Code
    /// The next instruction of ``code``: past the statement the task waits on, while it waits.
    var pc: Int {
        @inline(__always) get { Int(storedPC) }
        @inline(__always) set { storedPC = Int32(truncatingIfNeeded: newValue) }
    }
    /// ``pc`` and ``callDepth``, stored in one word: code holds fewer than 2^31 instructions, and
    /// calls nest no deeper than `--max-call-depth`, which is far less.
    @exclusivity(unchecked) private var storedPC: Int32 = 0
    @exclusivity(unchecked) private var storedCallDepth: Int32 = 0
    /// Room for the temporaries and locals of ``code``, made for the code that needs some (see
    /// ``Code/roomCount``); `nil` for code that needs none.
    @exclusivity(unchecked) private(set) var temporaries: UnsafeMutablePointer<Value>?
    /// What is left to run once ``code`` is done (the callers of functions called inline), and
    /// compensations running above it, innermost last.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// Bumped whenever the task blocks, is woken or is cancelled: a wake-up carrying an old
    /// token is stale and ignored.
    @exclusivity(unchecked) var token = 0
    /// How many `call`s deep it runs (0 for a root saga or a forked task).
    var callDepth: Int {
        @inline(__always) get { Int(storedCallDepth) }
        @inline(__always) set { storedCallDepth = Int32(clamping: newValue) }
    }
    /// When it began its current wait, in the order of all waits (for the END rule).
    @exclusivity(unchecked) var waitSequence = 0
    /// What few tasks need (children, joiners, a native saga, a yield's count), allocated
    /// on first use: a million tasks blocked on `take` carry one word for it instead of five.
    @exclusivity(unchecked) private var extras: TaskExtras?
    /// Set when the task fails, or is failing because an attached child failed.
    @exclusivity(unchecked) var failure: Failure?

    /// A name for stack traces: `saga main`, `func fetch`, `fork block`.
    @exclusivity(unchecked) private(set) var name: String
    /// Who gets this task's result when it is `owned`.
    @exclusivity(unchecked) var owner: Owner = .none
    /// Whether it runs an entry of a `race` or `all` (``owner`` is ``Owner/entry(_:_:)``).
    var isCombinatorEntry: Bool {
        if case .entry = owner { return true }
        return false
    }

    /// Where it was started (the fork or call site; the declaration for a root saga).
    @exclusivity(unchecked) private(set) var location: SourceLocation
    @exclusivity(unchecked) private(set) var kind: Kind
    @exclusivity(unchecked) var phase: Phase = .body
    /// Whether a trace slice is open for its current wait.
    @exclusivity(unchecked) var traceOpen = false
    /// Set when the body ended by the END rule (a blocked `take` ended as if by `return`).
    @exclusivity(unchecked) var endedByEnd = false

    /// What the task is blocked on.
    @exclusivity(unchecked) var wait: Wait = .none
    /// Set for a compensation that runs because its transaction's task is being cancelled:
    /// `cancelled` is true inside it.
    @exclusivity(unchecked) var runsForCancelledOwner = false
    /// Set when the task is being cancelled.
    @exclusivity(unchecked) var isCancelling = false
    /// Whether the turn the task waits for after a yield changes nothing another task could
    /// see.
    ///
    /// That is so when the task yielded to a body it forked, its code then only taking an
    /// action (see ``Code/Site/takesNext``). Set at each yield; read while the task's
    /// resumption is ``Resumption/start``.
    @exclusivity(unchecked) var nextTurnIsQuiet = false
    /// Set on a task that spawned one, and on those above it: it keeps its parent once it has
    /// finished (see ``keepParentsOnceFinished()``).
    @exclusivity(unchecked) private(set) var keepsParent = false

    /// Where the value of the effect it is blocked on goes.
    @exclusivity(unchecked) var target: ResultTarget = .discard
    /// Whether ``env`` is an array made for this task alone, which nothing else shares: once
    /// the task finishes, it keeps the array, its slots set to null, for the next task started
    /// in it (see ``SpareTasks``) to fill in place. (It fills the tail of ``target``.)
    @exclusivity(unchecked) var ownsVariables = false
    /// What the task does when it next runs.
    @exclusivity(unchecked) var resumption: Resumption = .start
    /// How it ended, once ``phase`` is `.done`; its return value as soon as its body returns.
    @exclusivity(unchecked) var outcome: Outcome?

    /// Where the statement that waited stands, while the task waits or as it resumes: the one
    /// before ``pc`` (a statement that waits leaves the task there).
    var waitingStatementLocation: SourceLocation? {
        code.site(endingAt: pc)?.statement.location
    }

    /// The body's value (`return`), once it has ended normally.
    var result: Value {
        if case .value(let v)? = outcome { return v }
        return .null
    }

    private var extrasForWriting: TaskExtras {
        if let extras { return extras }
        let made = TaskExtras()
        extras = made
        return made
    }

    /// Has this task, and those above it, keep their parents once they finish: it spawned a
    /// task, which may fail after them, and whose stack then names them all.
    func keepParentsOnceFinished() {
        var task: SagaTask? = self
        while let next = task, !next.keepsParent {
            next.keepsParent = true
            task = next.parent
        }
    }

    /// Attached children in the order they were started.
    ///
    /// Finished ones are dropped lazily (removing each from the middle would make a million
    /// forks quadratic), so skip those that are done; ``liveChildren`` counts the rest.
    var children: [SagaTask] { extras?.children ?? [] }
    /// How many attached children are still running.
    var liveChildren: Int { extras?.liveChildren ?? 0 }

    /// For a saga written in Swift: its function and its connection to the scheduler.
    var native: NativeState? {
        get { extras?.native }
        set { if newValue != nil || extras != nil { extrasForWriting.native = newValue } }
    }

    /// The `try`s and transactions its code stands in, once one has begun.
    var tries: CodeTries? {
        get { extras?.tries }
        set { if newValue != nil || extras != nil { extrasForWriting.tries = newValue } }
    }

    /// A `try` or transaction of its code begins (see ``CodeTries/beginTry(_:)``).
    ///
    /// Out of line, as the two below: the loop that runs code calls them, and would grow by
    /// what they do.
    @inline(never)
    func beginTry(_ handler: Code.Handler) {
        let extras = extrasForWriting
        if let tries = extras.tries { return tries.beginTry(handler) }
        let made = CodeTries()
        extras.tries = made
        made.beginTry(handler)
    }

    /// The innermost `try` or transaction of its code ends (see ``CodeTries/endTry(_:)``).
    @inline(never)
    func endTry() {
        tries?.endTry(self)
    }

    /// A jump leaves a `finally` block: the way out that ran it is dropped.
    @inline(never)
    func leaveFinally() {
        _ = tries?.pending.popLast()
    }

    /// The error its last `catch` caught: `throw` of that same error again keeps the trace of
    /// where it was first thrown, as a rethrown JavaScript error keeps its stack.
    var lastCaught: Failure? {
        get { extras?.lastCaught }
        set { if newValue != nil || extras != nil { extrasForWriting.lastCaught = newValue } }
    }

    /// For the trace: the effect it last performed, which names the slice of its next wait.
    var tracedEffect: TracedEffect? {
        get { extras?.tracedEffect }
        set { if newValue != nil || extras != nil { extrasForWriting.tracedEffect = newValue } }
    }

    /// Steps without waiting that its next turn counts on from (see
    /// ``Interpreter/Options/maxSteps``): those it took before it last yielded for
    /// ``Interpreter/Options/yieldAfterSteps``; for a function's own task, its caller's at the
    /// `call`; for that caller, the function's (since it last waited) where its code returned
    /// or failed.
    var stepsCarried: Int {
        get { extras?.stepsCarried ?? 0 }
        set { if newValue != 0 || extras != nil { extrasForWriting.stepsCarried = newValue } }
    }

    /// Adds a newly started attached child.
    func adopt(_ child: SagaTask) {
        let extras = extrasForWriting
        extras.children.append(child)
        extras.liveChildren += 1
    }

    /// Forgets a finished attached child.
    func release(_ child: SagaTask) {
        guard let extras else { return }
        extras.liveChildren -= 1
        if extras.liveChildren == 0 {
            if extras.children.count <= 64 {
                // Popped one by one, keeping the storage: `removeAll(keepingCapacity:)` goes
                // through the generic `replaceSubrange`, and a watcher's single child is
                // released once per action.
                while extras.children.popLast() != nil {}
            } else {
                extras.children = []
            }
        } else if extras.children.count >= 64, extras.children.count > 4 * extras.liveChildren {
            extras.children.removeAll { $0.isDone }
        }
    }

    /// Drops every link to other tasks, values and code: for a task left unfinished when a
    /// run is over (see ``TaskTree/releaseUnfinishedTasks()``).
    func forgetLinks() {
        parent = nil
        owner = .none
        wait = .none
        target = .discard
        resumption = .start
        env = []
        endCode()
        releaseRoom()
        code = .none
        frames = []
        extras = nil
        outcome = nil
        failure = nil
    }

    /// Adds a task blocked on `join` of this one.
    ///
    /// The first is kept in place: most joined tasks have one joiner, and an array for it
    /// would be an allocation and a free per join.
    func addJoiner(_ task: SagaTask, token: Int) {
        let extras = extrasForWriting
        if extras.firstJoiner == nil, extras.joiners.isEmpty {
            extras.firstJoiner = (task, token)
        } else {
            extras.joiners.append((task, token))
        }
    }

    /// Forgets the tasks blocked on `join` of this one, handing each to `body` (with the token
    /// it blocked with) in the order they joined.
    ///
    /// Inlined: most tasks have no joiner, and finding that out is one load.
    @inline(__always)
    func takeJoiners(_ body: (SagaTask, Int) -> Void) {
        guard let extras else { return }
        if let first = extras.firstJoiner {
            extras.firstJoiner = nil
            body(first.task, first.token)
        }
        if extras.joiners.isEmpty { return }
        let rest = extras.joiners
        extras.joiners = []
        for joiner in rest { body(joiner.task, joiner.token) }
    }

    /// The tasks still blocked on `join` of this one, left where they are.
    func forEachJoiner(_ body: (SagaTask) -> Void) {
        guard let extras else { return }
        if let first = extras.firstJoiner, first.task.token == first.token { body(first.task) }
        for joiner in extras.joiners where joiner.task.token == joiner.token { body(joiner.task) }
    }

    /// The number of the stand-in for blocks that ended in their parent's turn (see
    /// ``Interpreter/endedBodyHandle(_:at:)``): below every task's, which start at 1.
    static let endedBodyID = 0

    init(
        id: Int, name: String, location: SourceLocation, kind: Kind, parent: SagaTask?, env: [Value],
        body: Code
    ) {
        self.id = id
        self.name = name
        self.location = location
        self.kind = kind
        self.parent = parent
        self.env = env
        self.code = body
        temporaries = Self.room(for: body)
    }

    deinit {
        releaseRoom()
    }

    /// Makes this finished task, to which nothing else refers any more, a new one: every field
    /// as `init` leaves it (see ``SpareTasks``), but ``token``, which goes on counting (nothing
    /// holds a wake-up of the old task, and a token that never goes back would keep one stale).
    ///
    /// A field that a finished task already holds as `init` left it is only checked: assigning
    /// it would destroy its old value through an outlined call, which eats into what a
    /// restart saves.
    func restart(
        id: Int, name: String, location: SourceLocation, kind: Kind, parent: SagaTask?, env: consuming [Value],
        body: Code
    ) {
        if self.name != name { self.name = name }
        self.location = location
        self.kind = kind
        keepsParent = false
        ownsVariables = false
        nextTurnIsQuiet = false
        self.id = id
        if self.parent !== parent { self.parent = parent }
        self.env = env
        // The room the last body left, emptied, serves a body that needs as much.
        if temporaries == nil || body.roomCount != code.roomCount {
            releaseRoom()
            temporaries = Self.room(for: body)
        }
        code = body
        pc = 0
        if !frames.isEmpty { frames = [] }
        callDepth = 0
        waitSequence = 0
        // Extras that hold the `try`s of the body's code are kept for the next body, emptied: a
        // body with a `try` would otherwise make both again each time it runs.
        if let extras {
            if extras.tries != nil { extras.reset() } else { self.extras = nil }
        }
        if failure != nil { failure = nil }
        if case .none = owner {} else { owner = .none }
        phase = .body
        traceOpen = false
        endedByEnd = false
        if case .none = wait {} else { wait = .none }
        runsForCancelledOwner = false
        isCancelling = false
        if case .discard = target {} else { target = .discard }
        if case .start = resumption {} else { resumption = .start }
        if outcome != nil { outcome = nil }
    }

    /// Room for the temporaries and locals of `code`, if it needs any.
    private static func room(for code: Code) -> UnsafeMutablePointer<Value>? {
        let count = code.roomCount
        guard count > 0 else { return nil }
        let room = UnsafeMutablePointer<Value>.allocate(capacity: count)
        room.initialize(repeating: .null, count: count)
        return room
    }

    /// Frees the room of ``code``'s temporaries.
    private func releaseRoom() {
        guard let temporaries else { return }
        temporaries.deinitialize(count: code.roomCount)
        temporaries.deallocate()
        self.temporaries = nil
    }

    /// Runs the code of a function called inline, `code`, from its start; what the task ran
    /// goes into `frame`, which ``leaveCall(_:)`` gives back.
    func enterCall(_ code: Code, saving frame: CallFrame) {
        frame.temporaries = temporaries
        frame.tries = tries
        if frame.tries != nil { tries = nil }
        frames.append(.call(frame))
        self.code = code
        pc = 0
        temporaries = Self.room(for: code)
    }

    /// Goes back to the code a call frame saved (its `try`s, its room, where it stood); the
    /// code of the function called is done with.
    func leaveCall(_ frame: CallFrame) {
        releaseRoom()
        code = frame.code
        pc = frame.pc
        temporaries = frame.temporaries
        frame.temporaries = nil
        tries = frame.tries
        frame.tries = nil
    }

    /// Adds compensations to the task's innermost transaction: in its code, or in the code of
    /// its callers (see ``CodeTries/transactions``).
    ///
    /// - Returns: `false` if the task stands in no transaction.
    func addCompensations(_ compensations: [Compensation]) -> Bool {
        if let tries, !tries.transactions.isEmpty {
            tries.transactions[tries.transactions.count - 1] += compensations
            return true
        }
        for i in stride(from: frames.count - 1, through: 0, by: -1) {
            if case .call(let frame) = frames[i], let tries = frame.tries, !tries.transactions.isEmpty {
                tries.transactions[tries.transactions.count - 1] += compensations
                return true
            }
        }
        return false
    }

    /// Sets temporary `index` of the code to `value` (an effect's, which the code then stores
    /// through a path).
    func setTemporary(_ index: Int, to value: consuming Value) {
        guard let temporaries, index < code.temporaryCount else { return }
        temporaries[index] = value
    }

    /// Lets go of what the variables hold, keeping their array (see ``ownsVariables``).
    func clearVariables() {
        // An empty array has no storage of its own: asked for a mutable buffer, it would make one.
        if env.isEmpty { return }
        env.withUnsafeMutableBufferPointer { slots in
            for i in 0..<slots.count {
                if case .null = slots[i] { continue }
                slots[i] = .null
            }
        }
    }

    /// Fills the variables kept by ``clearVariables()`` with those of `values` that `code` uses
    /// (see ``Code/copyCaptures(_:into:)``), in place (the rest stay null); the task owns them
    /// from then on.
    ///
    /// - Returns: `false`, having done nothing, where no array of `count` slots is kept.
    func fillVariables(count: Int, from values: [Value], _ code: Code) -> Bool {
        guard ownsVariables, env.count == count else { return false }
        if count == 0 || code.captureCount == 0 { return true }
        env.withUnsafeMutableBufferPointer { slots in
            values.withUnsafeBufferPointer { code.copyCaptures($0, into: slots) }
        }
        return true
    }

    /// Lets go of what the code needed while it ran: the body has ended.
    ///
    /// The room of its temporaries is kept, emptied, for the code the task restarts with (see
    /// ``restart(id:name:location:kind:parent:env:body:)``): making it anew would be an
    /// allocation for each task.
    func endCode() {
        if let temporaries {
            // A body that ran to its end read each temporary it wrote: they are null already.
            for i in 0..<code.roomCount {
                if case .null = temporaries[i] { continue }
                temporaries[i] = .null
            }
        }
        if let tries = extras?.tries { tries.removeAll() }
    }

    /// A handle for saga code.
    var handle: Value { .handle(Handle(kind: .task, id: id, object: self)) }

    /// `true` once the task has finished.
    var isDone: Bool { phase == .done }
}

/// The parts of a task that few tasks need (see ``SagaTask``'s `extras`).
///
/// Unchecked for exclusivity as ``SagaTask``'s own fields are, for the same reason: a
/// watcher's fork adopts and releases a child per action.
final class TaskExtras {
    @exclusivity(unchecked) var children: [SagaTask] = []
    @exclusivity(unchecked) var liveChildren = 0
    /// Tasks blocked on `join` of this one, with the token they blocked with: the first, and
    /// any after it (see ``SagaTask/addJoiner(_:token:)``).
    @exclusivity(unchecked) var firstJoiner: (task: SagaTask, token: Int)?
    @exclusivity(unchecked) var joiners: [(task: SagaTask, token: Int)] = []
    @exclusivity(unchecked) var native: NativeState?
    @exclusivity(unchecked) var stepsCarried = 0
    /// The `try`s and transactions of its code, once one has begun.
    @exclusivity(unchecked) var tries: CodeTries?
    /// The error its last `catch` caught, with the trace of where it was thrown.
    @exclusivity(unchecked) var lastCaught: Failure?
    /// In a traced run, the effect it last performed.
    @exclusivity(unchecked) var tracedEffect: TracedEffect?

    /// Every field as a new task's extras have it, but ``tries``, which keeps its room.
    func reset() {
        if !children.isEmpty { children = [] }
        liveChildren = 0
        if firstJoiner != nil { firstJoiner = nil }
        if !joiners.isEmpty { joiners = [] }
        if native != nil { native = nil }
        stepsCarried = 0
        if lastCaught != nil { lastCaught = nil }
        if tracedEffect != nil { tracedEffect = nil }
        tries?.removeAll()
    }
}

/// How a finished task ended.
enum Outcome {
    case value(Value)
    case failed(Failure)
    case cancelled
}

/// An error on its way out of a task, with where it was raised, for the saga stack.
///
/// A class: failures are rare and never change once raised, and one reference keeps
/// `Resumption`, `Completion` and `Outcome` (which every task carries) small.
final class Failure {
    let error: SagaError
    /// Frames of the saga stack, innermost first: `func fetch at a.saga:3:5`.
    let trace: [String]

    init(error: SagaError, trace: [String]) {
        self.error = error
        self.trace = trace
    }
}

/// Who waits for an `owned` task.
enum Owner {
    case none
    /// A task blocked on `call` (or `retry`, or a compensation) of this one.
    case caller(SagaTask)
    /// Entry `index` of a `race` or `all`.
    case entry(Combinator, Int)
}

/// What a blocked task waits for.
enum Wait {
    case none
    /// A `take` on the store's actions (it is in the takers list).
    case take
    /// A `take` on a channel.
    case channel(Channel)
    /// Its `put` action to be processed.
    case put
    /// An owned task (`call` of a saga function, `retry`, a compensation).
    case task(SagaTask)
    /// The entries of a `race` or `all`.
    case combinator(Combinator)
    /// `join` of these tasks (results gathered in order).
    case join(JoinState)
    /// `join` of one task.
    case joinOne(SagaTask)
    /// A `delay`: the timer's sequence number.
    case timer(Int)
    /// A host function call in flight.
    case host(Int)
}

/// The state of a `join` of one or several tasks.
final class JoinState {
    let tasks: [SagaTask]
    let isList: Bool
    var remaining: Int
    init(tasks: [SagaTask], isList: Bool) {
        self.tasks = tasks
        self.isList = isList
        self.remaining = tasks.count
    }
}

/// Where the result of an effect goes when the task resumes.
enum ResultTarget {
    case discard
    case slot(Int)
    /// A temporary of the task's code, which the code then stores through a path
    /// (see ``Code/Site/result``).
    case temporary(Int)
}

/// What a task does when the scheduler next runs it.
enum Resumption {
    /// Start (or go on with) its frames.
    case start
    /// The effect it blocked on gave this value.
    case value(Value)
    /// The effect it blocked on threw.
    case error(Failure)
    /// Leave the body abruptly (cancellation, abort, END).
    case unwind(Completion)

    /// The value of a ``value(_:)`` resumption, moved out (`.null` for any other).
    consuming func takeValue() -> Value {
        guard case .value(let value) = consume self else { return .null }
        return value
    }
}
