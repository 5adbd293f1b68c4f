import SagaCore
import SagaLanguage

extension Interpreter {
    /// The saga stack of an error raised in `task` at `location`: the task (or the function it
    /// runs inline), each function that called it, then each task that started it, with where
    /// it did.
    ///
    /// A deep recursion would make endless ones: past ``StackLines/most`` lines, the frames in
    /// between are counted in one line, and the outermost (the root saga) is kept.
    func trace(_ task: SagaTask, at location: SourceLocation) -> [String] {
        var calls = inlineCalls(of: task)
        // A saga written in Swift has no place in a source file: its name alone.
        let name = calls.first?.name ?? stackName(task)
        var lines = StackLines()
        lines.add { location.line > 0 ? "at \(name) (\(self.describe(location)))" : "at \(name)" }
        appendCallers(calls, of: task, to: &lines)
        var child = task
        while let parent = child.parent {
            let verb: String
            switch child.kind {
            // `leading` calls its body, as the reference writes it (its loop forks it and joins).
            case .attached: verb = stackName(child) == "leading body" ? "called by" : "forked by"
            case .detached: verb = "spawned by"
            case .owned: verb = "called by"
            case .root: verb = "started by"
            }
            // An owned task's parent waits for it, so the functions the parent runs inline
            // now are those it ran when it started the task. A forked or spawned task was
            // started outside any inline call (inlined functions do not fork), and the parent
            // may have moved on into one since.
            calls = child.kind == .owned ? inlineCalls(of: parent) : []
            let starter = calls.first?.name ?? stackName(parent)
            let at = child.location
            lines.add { at.line > 0 ? "\(verb) \(starter) at \(self.describe(at))" : "\(verb) \(starter)" }
            appendCallers(calls, of: parent, to: &lines)
            child = parent
        }
        return lines.finished()
    }

    /// The lines of a saga stack, made only for the frames it shows (see ``trace(_:at:)``).
    struct StackLines {
        /// The most lines a stack shows, the line that counts the frames left out included.
        static let most = 64
        private var lines: [String] = []
        /// How many frames came after the first ``most``, and the line of the last of them.
        private var more = 0
        private var last: (() -> String)?

        /// Adds a frame's line, made if it may be shown.
        mutating func add(_ line: @escaping () -> String) {
            if lines.count < Self.most {
                lines.append(line())
            } else {
                more += 1
                last = line
            }
        }

        /// The lines: with more frames than ``most``, those between the first `most - 2` and the
        /// outermost counted in one.
        func finished() -> [String] {
            guard let last else { return lines }
            let shown = Self.most - 2
            return Array(lines[..<shown]) + ["… \(lines.count - shown + more - 1) more", last()]
        }
    }

    /// What a stack calls a task: its name, but `every body` (and so on) for the body a
    /// watcher's loop forked, which is a fork block at the watcher's place.
    private func stackName(_ task: SagaTask) -> String {
        let suffix = " watcher"
        guard task.name == "fork block", let parent = task.parent, parent.location == task.location,
            parent.name.hasSuffix(suffix)
        else { return task.name }
        return parent.name.dropLast(suffix.count) + " body"
    }

    /// The functions `task` runs inline, innermost first.
    private func inlineCalls(of task: SagaTask) -> [CallFrame] {
        var calls: [CallFrame] = []
        for frame in task.frames.reversed() {
            if case .call(let call) = frame { calls.append(call) }
        }
        return calls
    }

    /// `called by NAME at SITE` for each inline call, innermost first.
    private func appendCallers(_ calls: [CallFrame], of task: SagaTask, to lines: inout StackLines) {
        for (i, call) in calls.enumerated() {
            let caller = i + 1 < calls.count ? calls[i + 1].name : stackName(task)
            let at = call.location
            lines.add { "called by \(caller) at \(self.describe(at))" }
        }
    }

    /// `file:line:column` of a location.
    func describe(_ location: SourceLocation) -> String {
        let i = Int(location.file)
        let path = i >= 0 && i < program.files.count ? program.files[i].path : "<builtin>"
        return "\(path):\(location.line):\(location.column)"
    }

    /// Reports a failed root saga or spawned task, or a task that failed while cancelled where
    /// nothing waits for it (see “Errors and tasks” in Sagas/README.md), as `what` when given,
    /// and counts it for the exit code.
    func report(_ task: SagaTask, _ failure: Failure, what: String? = nil) {
        failures += 1
        reportedErrorMessages.append(failure.error.message)
        if tracer != nil { traceError(task, failure) }
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
