import SagaCore
import SagaLanguage

/// `sagarun ast --compiled`: what the runtime makes of a checked program, as text.
///
/// - Each reducer's ``Code``, instruction by instruction, with the source lines they come
///   from (``Code/listing(slotNames:files:)``).
/// - Each saga and function: its loops, `try`s and transactions, which run from code
///   (``Compiler/sagaStatement(_:slotCount:callShapes:)``),
///   instruction by instruction, and its watchers that run in short turns
///   (``ShortTurnWatcher``). The rest of a saga runs statement by statement.
package enum ProgramListing {
    /// The listing of `program`.
    package static func text(of program: Program) -> String {
        var out: [String] = []
        // The functions a loop calls in its code, as the interpreter compiles its loops.
        let callShapes = program.functions.map(CallShape.init)
        for reducer in program.reducers {
            var names = SlotNames()
            names.add(reducer.binding)
            names.add(reducer.body)
            let code = Code(reducer: reducer.body.statements, slotCount: max(reducer.slotCount, 1))
            let pattern = patternText(reducer.pattern)
            out.append(
                "reducer on \(pattern) at \(at(reducer.location)): \(count(code.instructions.count, "instruction")), "
                    + "\(count(code.temporaryCount, "temporary", plural: "temporaries"))")
            out += code.listing(slotNames: names.names, files: program.files)
        }
        for saga in program.sagas {
            out.append("saga \(saga.name) at \(at(saga.location)): runs statement by statement")
            var walk = BodyWalk(program: program, callShapes: callShapes)
            walk.walk(saga.body)
            out += walk.lines
        }
        for function in program.functions {
            out.append("func \(function.name) at \(at(function.location)): runs statement by statement")
            var walk = BodyWalk(program: program, callShapes: callShapes)
            for parameter in function.parameters { walk.names.add(parameter) }
            walk.walk(function.body)
            out += walk.lines
        }
        return out.joined(separator: "\n") + (out.isEmpty ? "" : "\n")
    }

    static func at(_ location: SourceLocation) -> String { "\(location.line):\(location.column)" }

    static func count(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? noun : plural ?? noun + "s")"
    }

    /// A literal pattern as JSON, `*`, or `a pattern` for one computed.
    static func patternText(_ pattern: Pattern) -> String {
        switch pattern {
        case .any: return "*"
        case .expr(.literal(let value, _)): return value.canonicalJSON
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
            case .assign, .effect, .log, .throw, .break, .continue, .return:
                break
            }
        }
    }

    /// Lists a saga's or function's compiled loops and short-turn watchers, nested blocks
    /// included.
    struct BodyWalk {
        let program: Program
        var names = SlotNames()
        var lines: [String] = []
        /// Whether the statements walked are inside a loop listed as code (whose nested loops
        /// are part of its code).
        var inCode = false

        /// How each function is called: a loop makes the calls of those whose body is one
        /// `return` in its code (see ``CallShape/returnedValue``).
        let callShapes: [CallShape]

        init(program: Program, callShapes: [CallShape]) {
            self.program = program
            self.callShapes = callShapes
        }

        mutating func walk(_ block: Block) {
            names.add(block)
            for statement in block.statements { walk(statement) }
        }

        mutating func walk(_ statement: Stmt) {
            switch statement {
            case .declare(_, _, .effect(let effect), _), .assign(_, .effect(let effect), _), .effect(let effect, _):
                walk(effect)
            case .declare, .assign, .log, .throw, .break, .continue, .return:
                break
            case .if(let arms, let otherwise, _):
                for arm in arms { walk(arm.body) }
                if let otherwise { walk(otherwise) }
            case .while(_, let body, let location), .loop(let body, let location):
                code(statement, "loop", body, location)
            case .for(_, _, let body, let location):
                code(statement, "for", body, location)
            case .try(let body, _, _, let location):
                code(statement, "try", body, location)
            case .transaction(let body, let location):
                code(statement, "transaction", body, location)
            case .compensate(let body, _):
                walk(body)
            }
        }

        mutating func walk(_ effect: Effect) {
            // A block an effect runs (a forked one, a watcher's body) has loops of its own.
            let saved = inCode
            inCode = false
            defer { inCode = saved }
            switch effect {
            case .fork(.block(let body), _), .spawn(.block(let body), _):
                walk(body)
            case .watcher(let watcher):
                let how =
                    ShortTurnWatcher.make(for: watcher) != nil
                    ? "runs each action's body in a short turn"
                    : "runs as a loop of take and fork"
                lines.append("  \(watcher.kind.rawValue) at \(at(watcher.location)): \(how)")
                names.add(watcher.binding)
                walk(watcher.body)
            case .race(let entries, _), .allRecord(let entries, _):
                for entry in entries { walk(entry.effect) }
            case .allList(let effects, _):
                for effect in effects { walk(effect) }
            case .allFor(_, _, let effect, _), .retry(_, _, let effect, _, _):
                walk(effect)
            default:
                break
            }
        }

        /// A loop, `try` or `transaction`: its code, unless it is part of the code around it,
        /// and the blocks inside.
        mutating func code(_ statement: Stmt, _ kind: String, _ body: Block, _ location: SourceLocation) {
            names.add(statement)
            if inCode {
                walkBlocks(of: statement)
                return
            }
            // Listed with every slot its own (the task's frame decides which it has).
            if let code = Code(sagaStatement: statement, slotCount: Int(Int32.max), callShapes: callShapes) {
                lines.append("  \(kind) at \(at(location)): compiled, \(count(code.instructionCount, "instruction"))")
                lines += code.listing(slotNames: names.names, files: program.files, indent: "    ")
                inCode = true
                walkBlocks(of: statement)
                inCode = false
            } else {
                lines.append("  \(kind) at \(at(location)): runs statement by statement")
                walkBlocks(of: statement)
            }
        }

        /// The blocks of a loop, `try` or `transaction`.
        mutating func walkBlocks(of statement: Stmt) {
            switch statement {
            case .try(let body, let handler, let finally, _):
                walk(body)
                if let handler { walk(handler.body) }
                if let finally { walk(finally) }
            case .while(_, let body, _), .loop(let body, _), .for(_, _, let body, _), .transaction(let body, _):
                walk(body)
            default:
                break
            }
        }
    }
}
