import SagaCore
import SagaLanguage

/// The saga stack an error report shows below its message.
///
/// ```
/// error: saga main failed: boom
///     at func g (app.saga:7:3)
///     called by func f at app.saga:3:11
///     called by saga main at app.saga:10:11
/// ```
enum SagaStack {
    /// The stack of an error raised in `task` at `location`, a line a frame: the task (or the
    /// function it runs inline), each function that called it, then each task that started
    /// it, with where it did.
    ///
    /// A deep recursion would make endless ones: past ``StackLines/most`` lines, the frames in
    /// between are counted in one line, and the outermost (the root saga) is kept.
    static func lines(of task: SagaTask, at location: SourceLocation, in program: Program) -> [String] {
        var calls = inlineCalls(of: task)
        // A saga written in Swift has no place in a source file: its name alone.
        let name = calls.first?.name ?? stackName(task)
        var lines = StackLines()
        lines.add { location.line > 0 ? "at \(name) (\(program.place(of: location)))" : "at \(name)" }
        appendCallers(calls, of: task, to: &lines, program)
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
            lines.add { at.line > 0 ? "\(verb) \(starter) at \(program.place(of: at))" : "\(verb) \(starter)" }
            appendCallers(calls, of: parent, to: &lines, program)
            child = parent
        }
        return lines.finished()
    }

    /// The lines of a saga stack, made only for the frames it shows (see ``lines(of:at:in:)``).
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
    private static func stackName(_ task: SagaTask) -> String {
        let suffix = " watcher"
        guard task.name == "fork block", let parent = task.parent, parent.location == task.location,
            parent.name.hasSuffix(suffix)
        else { return task.name }
        return parent.name.dropLast(suffix.count) + " body"
    }

    /// The functions `task` runs inline, innermost first.
    private static func inlineCalls(of task: SagaTask) -> [CallFrame] {
        var calls: [CallFrame] = []
        for frame in task.frames.reversed() {
            if case .call(let call) = frame { calls.append(call) }
        }
        return calls
    }

    /// `called by NAME at SITE` for each inline call, innermost first.
    private static func appendCallers(
        _ calls: [CallFrame], of task: SagaTask, to lines: inout StackLines, _ program: Program
    ) {
        for (i, call) in calls.enumerated() {
            let caller = i + 1 < calls.count ? calls[i + 1].name : stackName(task)
            let at = call.location
            lines.add { "called by \(caller) at \(program.place(of: at))" }
        }
    }
}
