import SagaCore
import SagaLanguage

/// `sagarun ast --compiled`: what the runtime makes of a checked program, as text.
///
/// - Each reducer's ``Code``, instruction by instruction, with the source lines they come
///   from (``Code/listing(slotNames:files:)``).
/// - Each saga and function, and each body they start (a forked or spawned block, a watcher's
///   loop and body, a compensation): its code (``Compiler/sagaBody(_:slotCount:returnedValues:)``),
///   instruction by instruction.
package enum ProgramListing {
    /// The listing of `program`.
    package static func text(of program: Program) -> String {
        var out: [String] = []
        // The functions a body calls in its code, as the interpreter compiles its bodies.
        let returnedValues = Code.returnedValues(of: program.functions)
        let functionNames = program.functions.map(\.name)
        for reducer in program.reducers {
            var names = SlotNames()
            names.add(reducer.binding)
            names.add(reducer.body)
            let code = Code(reducer: reducer.body.statements, slotCount: max(reducer.slotCount, 1))
            let pattern = patternText(reducer.pattern)
            out.append(
                "reducer on \(pattern) at \(at(reducer.location, in: program.files)): \(count(code.instructions.count, "instruction")), "
                    + "\(count(code.temporaryCount, "temporary", plural: "temporaries"))")
            out += code.listing(slotNames: names.names, files: program.files, functionNames: functionNames)
        }
        for saga in program.sagas {
            var walk = BodyWalk(program: program, returnedValues: returnedValues)
            walk.list("saga \(saga.name) at \(at(saga.location, in: program.files))", saga.body, indent: "")
            out += walk.lines
        }
        for function in program.functions {
            var walk = BodyWalk(program: program, returnedValues: returnedValues)
            for parameter in function.parameters { walk.names.add(parameter) }
            walk.list(
                "func \(function.name) at \(at(function.location, in: program.files))", function.body, indent: "",
                isFunction: true)
            out += walk.lines
        }
        return out.joined(separator: "\n") + (out.isEmpty ? "" : "\n")
    }

    static func at(_ location: SourceLocation) -> String { "\(location.line):\(location.column)" }

    /// Where a declaration stands: `line:column`, after its file's path when it is not the
    /// root file (one the program imports).
    static func at(_ location: SourceLocation, in files: [SourceFile]) -> String {
        let file = Int(location.file)
        guard file > 0, file < files.count else { return at(location) }
        return "\(files[file].path):\(at(location))"
    }

    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// A literal pattern or a list of types as JSON, `*`, or `a pattern` for one computed.
    static func patternText(_ pattern: Pattern) -> String {
        switch pattern {
        case .any: return "*"
        case .expr(.literal(let value, _)): return value.canonicalJSON
        case .expr(.list(let items, _)):
            // `["inc", "dec"]`: its strings as a JSON list.
            let types = items.compactMap { item -> Value? in
                if case .literal(.string(let type), _) = item { return .string(type) }
                return nil
            }
            return types.count == items.count ? Value.list(types).canonicalJSON : "a pattern"
        case .expr: return "a pattern"
        }
    }

    /// The names of a body's variables by slot (a slot reused by two scopes shows the first).
    struct SlotNames {
        var names: [String] = []

        mutating func add(_ variable: Variable) {
            guard variable.slot >= 0 else { return }
            if names.count <= variable.slot { names += Array(repeating: "", count: variable.slot + 1 - names.count) }
            if names[variable.slot].isEmpty { names[variable.slot] = variable.name }
        }

        mutating func add(_ block: Block) {
            for statement in block.statements { add(statement) }
        }

        mutating func add(_ statement: Stmt) {
            switch statement {
            case .declare(let variable, _, _, _): add(variable)
            case .if(let arms, let otherwise, _):
                for arm in arms { add(arm.body) }
                if let otherwise { add(otherwise) }
            case .while(_, let body, _), .loop(let body, _), .transaction(let body, _), .compensate(let body, _):
                add(body)
            case .for(let variable, _, let body, _):
                add(variable)
                add(body)
            case .try(let body, let handler, let finally, _):
                add(body)
                if let handler {
                    add(handler.binding)
                    add(handler.body)
                }
                if let finally { add(finally) }
            case .assign(let target, _, _):
                // A watcher's hidden variable is only ever assigned (`latest`'s `last`).
                if case .variable(let variable) = target.root { add(variable) }
            case .effect, .log, .throw, .break, .continue, .return:
                break
            }
        }
    }

    /// The code of a body and, after it, of each body it starts (a forked or spawned block, a
    /// watcher's loop, a compensation), each listed under the one that starts it.
    struct BodyWalk {
        let program: Program
        var names = SlotNames()
        var lines: [String] = []
        let returnedValues: [Expr?]

        init(program: Program, returnedValues: [Expr?]) {
            self.program = program
            self.returnedValues = returnedValues
        }

        /// Lists `body`'s code under `title`, then the bodies it starts; a function's title
        /// says how a `call` runs it (see ``Code/runsInCallersTask``).
        mutating func list(_ title: String, _ body: Block, indent: String, isFunction: Bool = false) {
            names.add(body)
            // Listed with every slot its own (the task's frame decides which it has).
            guard let code = Code(sagaBody: body.statements, slotCount: Int(Int32.max), returnedValues: returnedValues)
            else {
                lines.append("\(indent)\(title): does not compile")
                return
            }
            let calledAs = code.runsInCallersTask ? "called in the caller's task" : "called as a task of its own"
            lines.append(
                "\(indent)\(title): compiled, \(count(code.instructionCount, "instruction"))"
                    + (isFunction ? ", \(calledAs)" : ""))
            lines += code.listing(
                slotNames: names.names, files: program.files, indent: indent + "  ",
                functionNames: program.functions.map(\.name))
            for statement in body.statements { walk(statement, indent: indent + "  ") }
        }

        /// The bodies a statement starts, listed.
        mutating func walk(_ statement: Stmt, indent: String) {
            switch statement {
            case .declare(_, _, .effect(let effect), _), .assign(_, .effect(let effect), _), .effect(let effect, _):
                walk(effect, indent: indent)
            case .declare, .assign, .log, .throw, .break, .continue, .return:
                break
            case .if(let arms, let otherwise, _):
                for arm in arms { walk(arm.body, indent: indent) }
                if let otherwise { walk(otherwise, indent: indent) }
            case .while(_, let body, _), .loop(let body, _), .for(_, _, let body, _), .transaction(let body, _):
                walk(body, indent: indent)
            case .try(let body, let handler, let finally, _):
                walk(body, indent: indent)
                if let handler { walk(handler.body, indent: indent) }
                if let finally { walk(finally, indent: indent) }
            case .compensate(let body, let location):
                list("compensation at \(at(location))", body, indent: indent)
            }
        }

        private mutating func walk(_ block: Block, indent: String) {
            names.add(block)
            for statement in block.statements { walk(statement, indent: indent) }
        }

        mutating func walk(_ effect: Effect, indent: String) {
            switch effect {
            case .fork(.block(let body), let location):
                list("fork block at \(at(location))", body, indent: indent)
            case .spawn(.block(let body), let location):
                list("spawn block at \(at(location))", body, indent: indent)
            case .watcher(let watcher):
                // The loop it runs (``SagaLanguage/WatcherLoop``), whose `fork` starts its body.
                list("\(watcher.kind.rawValue) at \(at(watcher.location)), its loop", watcher.loop, indent: indent)
            case .race(let entries, _), .allRecord(let entries, _):
                for entry in entries { walk(entry.effect, indent: indent) }
            case .allList(let effects, _):
                for effect in effects { walk(effect, indent: indent) }
            case .allFor(_, _, let effect, _), .retry(_, _, let effect, _, _):
                walk(effect, indent: indent)
            default:
                break
            }
        }
    }
}
