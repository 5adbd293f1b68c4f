import SagaCore
import SagaLanguage

extension Interpreter {
    /// The saga stack of an error raised in `task` at `location`: the task, then each task
    /// that started it, with where it did.
    func trace(_ task: SagaTask, at location: SourceLocation) -> [String] {
        var lines = ["at \(task.name) (\(describe(location)))"]
        var child = task
        var depth = 0
        while let parent = child.parent, depth < 64 {
            let verb: String
            switch child.kind {
            case .attached: verb = "forked by"
            case .detached: verb = "spawned by"
            case .owned: verb = "called by"
            case .root: verb = "started by"
            }
            lines.append("\(verb) \(parent.name) at \(describe(child.location))")
            child = parent
            depth += 1
        }
        return lines
    }

    /// `file:line:column` of a location.
    func describe(_ location: SourceLocation) -> String {
        let i = Int(location.file)
        let path = i >= 0 && i < program.files.count ? program.files[i].path : "<builtin>"
        return "\(path):\(location.line):\(location.column)"
    }

    /// Reports a failed root saga or spawned task (§8), and counts it for the exit code.
    func report(_ task: SagaTask, _ failure: Failure) {
        failures += 1
        if tracer != nil { traceError(task, failure) }
        // `saga main`, `func fetch` → the declared name; a block keeps its description.
        var name = task.name
        for prefix in ["saga ", "func "] where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
        var text = "error: saga \(name) failed: \(failure.error.message)"
        for line in failure.trace { text += "\n    " + line }
        output.error(text)
    }
}
