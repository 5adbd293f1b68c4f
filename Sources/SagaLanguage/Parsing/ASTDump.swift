// A compact S-expression rendering of the AST, for tests and for `sagarun ast`'s debug
// output: `(saga main {(let x (take "a")) (log (+ x 1))})`.

import SagaCore

/// Renders parsed syntax trees as compact S-expressions.
///
/// Blocks are `{…}`, every other node is `(head children…)`, literals print as they would in
/// source. Locations are left out: tests that care about them read the AST directly.
///
/// ```swift
/// let (unit, _) = Parser.parse(SourceFile(path: "a.saga", text: "saga s { delay 1s }"), fileIndex: 0)
/// ASTDump().render(unit)   // "(saga s {(delay 1000)})"
/// ```
///
/// A call of a function the checker resolved shows its index (`#0`), or its name from
/// ``functionNames``.
package struct ASTDump {
    /// The program's functions by index, as a checked program numbers them.
    package var functionNames: [String]

    /// A renderer that names resolved functions from `functionNames`.
    package init(functionNames: [String] = []) {
        self.functionNames = functionNames
    }

    /// Every declaration of a unit, one per line.
    package func render(_ unit: SourceUnit) -> String {
        unit.declarations.map(render).joined(separator: "\n")
    }

    /// One declaration.
    package func render(_ declaration: Declaration) -> String {
        switch declaration {
        case .import(let path, _): return "(import \(Self.quote(path)))"
        case .extern(let decl): return "(extern \(decl.name) (\(decl.parameters.joined(separator: " "))))"
        case .state(let e, _): return "(state \(render(e)))"
        case .reducer(let r): return "(reduce \(render(r.pattern)) \(r.binding.name) \(render(r.body)))"
        case .saga(let s): return "(saga \(s.name) \(render(s.body)))"
        case .function(let f):
            return "(func \(f.name) (\(f.parameters.map(\.name).joined(separator: " "))) \(render(f.body)))"
        }
    }

    /// A block: `{stmt stmt}`.
    package func render(_ block: Block) -> String {
        "{" + block.statements.map(render).joined(separator: " ") + "}"
    }

    /// One statement; an effect statement renders as the effect alone.
    package func render(_ stmt: Stmt) -> String {
        switch stmt {
        case .declare(let v, let isMutable, let rhs, _):
            return "(\(isMutable ? "var" : "let") \(v.name) \(render(rhs)))"
        case .assign(let target, let rhs, _): return "(= \(render(target)) \(render(rhs)))"
        case .effect(let e, _): return render(e)
        case .log(let e, _): return "(log \(render(e)))"
        case .throw(let e, _): return "(throw \(render(e)))"
        case .if(let arms, let elseBlock, _):
            var parts = arms.map { "(\(render($0.condition)) \(render($0.body)))" }
            if let elseBlock { parts.append("(else \(render(elseBlock)))") }
            return "(if " + parts.joined(separator: " ") + ")"
        case .while(let c, let b, _): return "(while \(render(c)) \(render(b)))"
        case .loop(let b, _): return "(loop \(render(b)))"
        case .for(let v, let e, let b, _): return "(for \(v.name) \(render(e)) \(render(b)))"
        case .break: return "(break)"
        case .continue: return "(continue)"
        case .return(let e, _): return e.map { "(return \(render($0)))" } ?? "(return)"
        case .try(let body, let catchClause, let finallyBlock, _):
            var s = "(try \(render(body))"
            if let c = catchClause { s += " (catch \(c.binding.name) \(render(c.body)))" }
            if let f = finallyBlock { s += " (finally \(render(f)))" }
            return s + ")"
        case .transaction(let b, _): return "(transaction \(render(b)))"
        case .compensate(let b, _): return "(compensate \(render(b)))"
        }
    }

    func render(_ rhs: Rhs) -> String {
        switch rhs {
        case .expr(let e): return render(e)
        case .effect(let e): return render(e)
        }
    }

    func render(_ target: LValue) -> String {
        var s: String
        switch target.root {
        case .variable(let v): s = v.name
        case .state: s = "state"
        }
        for step in target.path {
            switch step {
            case .member(let name): s += "." + name
            case .index(let e): s += "[" + render(e) + "]"
            }
        }
        return s
    }

    /// A pattern: `*` or its expression.
    package func render(_ pattern: Pattern) -> String {
        switch pattern {
        case .any: return "*"
        case .expr(let e): return render(e)
        }
    }

    /// An effect, such as `(take "a")`, `(put "a" (record (x 1)))` or `(race (a (take "x")))`.
    package func render(_ effect: Effect) -> String {
        switch effect {
        case .take(let p, let condition, _):
            return "(take \(render(p))" + (condition.map { " (where \(render($0)))" } ?? "") + ")"
        case .put(let x, let y, _): return "(put \(render(x))" + (y.map { " " + render($0) } ?? "") + ")"
        case .select(let e, _): return e.map { "(select \(render($0)))" } ?? "(select)"
        case .call(let callee, let args, _): return "(call " + render(callee, args) + ")"
        case .fork(let body, _): return "(fork \(render(body)))"
        case .spawn(let body, _): return "(spawn \(render(body)))"
        case .join(let e, _): return "(join \(render(e)))"
        case .cancel(let e, _): return e.map { "(cancel \(render($0)))" } ?? "(cancel)"
        case .close(let e, _): return "(close \(render(e)))"
        case .flush(let e, _): return "(flush \(render(e)))"
        case .delay(let e, let value, _): return "(delay \(render(e))" + (value.map { " \(render($0))" } ?? "") + ")"
        case .race(let entries, _): return "(race" + render(entries) + ")"
        case .allRecord(let entries, _): return "(all" + render(entries) + ")"
        case .allList(let effects, _): return "(all [" + effects.map(render).joined(separator: " ") + "])"
        case .allFor(let v, let list, let e, _): return "(all-for \(v.name) \(render(list)) \(render(e)))"
        case .retry(let count, let wait, let e, _, _):
            var s = "(retry \(render(count))"
            switch wait {
            case .delay(let d)?: s += " (delay \(render(d)))"
            case .backoff(let d)?: s += " (backoff \(render(d)))"
            case nil: break
            }
            return s + " \(render(e)))"
        case .channel(let buffer, let kind, _): return "(channel" + render(buffer, kind) + ")"
        case .actionChannel(let p, let buffer, let kind, _):
            return "(actionChannel \(render(p))" + render(buffer, kind) + ")"
        case .watcher(let w):
            let duration = w.duration.map { render($0) + " " } ?? ""
            return "(\(w.kind.rawValue) \(duration)\(render(w.pattern)) \(w.binding.name) \(render(w.body)))"
        }
    }

    private func render(_ entries: [EffectEntry]) -> String {
        entries.map { " (\($0.key) \(render($0.effect)))" }.joined()
    }

    private func render(_ body: TaskBody) -> String {
        switch body {
        case .call(let callee, let args): return render(callee, args)
        case .block(let b): return render(b)
        }
    }

    private func render(_ callee: Callee, _ args: [Expr]) -> String {
        let name: String
        switch callee {
        case .named(let n, _): name = n
        case .function(let i, _): name = functionNames.indices.contains(i) ? functionNames[i] : "#\(i)"
        case .host(let n, _): name = "host:" + n
        }
        return ([name] + args.map(render)).joined(separator: " ")
    }

    /// An expression, such as `(+ a 1)`, `(. a b)`, `([] xs 0)`, `(len xs)` or `(record (k v))`.
    package func render(_ expr: Expr) -> String {
        switch expr {
        case .literal(let v, _): return render(v)
        case .interpolation(let parts, _):
            let rendered = parts.map { part -> String in
                switch part {
                case .text(let t): return Self.quote(t)
                case .expr(let e): return render(e)
                }
            }
            return "(interp " + rendered.joined(separator: " ") + ")"
        case .list(let items, _): return "[" + items.map(render).joined(separator: " ") + "]"
        case .record(let fields, _):
            return "(record" + fields.map { " (\($0.key) \(render($0.value)))" }.joined() + ")"
        case .variable(let v): return v.name
        case .state: return "state"
        case .cancelled: return "cancelled"
        case .it: return "it"
        case .member(let base, let name, _): return "(. \(render(base)) \(name))"
        case .index(let base, let index, _): return "([] \(render(base)) \(render(index)))"
        case .unary(let op, let e, _): return "(\(op.rawValue) \(render(e)))"
        case .binary(let op, let l, let r, _): return "(\(op.rawValue) \(render(l)) \(render(r)))"
        case .builtin(let name, let args, _):
            return "(" + ([name] + args.map(render)).joined(separator: " ") + ")"
        }
    }

    func render(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return String(d)
        case .string(let s): return Self.quote(s)
        default: return "<\(value.kindName)>"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A channel's buffer, with its kind when it is not the one its form implies.
    private func render(_ buffer: Expr?, _ kind: BufferKind) -> String {
        guard let buffer else { return kind == .expanding ? "" : " (\(kind.rawValue))" }
        return " (buffer \(render(buffer))" + (kind == .dropping ? "" : " \(kind.rawValue)") + ")"
    }
}
