// The AST as a Value tree, for `sagarun ast` (printed as canonical JSON). Every node is a
// record with a "kind", its "line" and "column", and its children by name.

import SagaCore

/// The declarations of one parsed file as a JSON-ready value.
///
/// ```swift
/// let (unit, _) = Parser.parse(file, fileIndex: 0)
/// let json = astJSON(unit)   // {"declarations": [{"kind": "saga", "name": "main", …}], "file": 0}
/// ```
package func astJSON(_ unit: SourceUnit) -> Value {
    ASTJSON.record([
        ("file", .int(Int(unit.file))),
        ("declarations", .list(unit.declarations.map(ASTJSON.declaration))),
    ])
}

/// A checked program as a JSON-ready value: its files, initial state, reducers, sagas and
/// functions, with resolved slots and callees.
package func astJSON(_ program: Program) -> Value {
    var fields: [(String, Value)] = [
        ("files", .list(program.files.map { .string($0.path) })),
        ("initialState", program.initialState.map(ASTJSON.expr) ?? .null),
        ("reducers", .list(program.reducers.map { ASTJSON.declaration(.reducer($0)) })),
        ("sagas", .list(program.sagas.map { ASTJSON.declaration(.saga($0)) })),
        ("functions", .list(program.functions.map { ASTJSON.declaration(.function($0)) })),
    ]
    if !program.externs.isEmpty {
        fields.append(("externs", .list(program.externs.map { ASTJSON.declaration(.extern($0)) })))
    }
    return ASTJSON.record(fields)
}

/// The node builders behind ``astJSON(_:)-…``.
private enum ASTJSON {
    static func record(_ pairs: [(String, Value)]) -> Value {
        .record(Record(pairs))
    }

    static func node(_ kind: String, _ at: SourceLocation, _ fields: [(String, Value)] = []) -> Value {
        record([("kind", .string(kind)), ("line", .int(Int(at.line))), ("column", .int(Int(at.column)))] + fields)
    }

    /// A channel's `bufferKind` field, when its kind is not the one its form implies.
    static func bufferKind(_ buffer: Expr?, _ kind: BufferKind) -> [(String, Value)] {
        kind == (buffer == nil ? .expanding : .dropping) ? [] : [("bufferKind", .string(kind.rawValue))]
    }

    static func optional<T>(_ value: T?, _ transform: (T) -> Value) -> Value {
        value.map(transform) ?? .null
    }

    static func declaration(_ declaration: Declaration) -> Value {
        switch declaration {
        case .import(let path, let at):
            return node("import", at, [("path", .string(path))])
        case .extern(let decl):
            return node(
                "extern", decl.location,
                [("name", .string(decl.name)), ("parameters", .list(decl.parameters.map { .string($0) }))])
        case .state(let e, let at):
            return node("state", at, [("value", expr(e))])
        case .reducer(let r):
            return node(
                "reduce", r.location,
                [
                    ("pattern", pattern(r.pattern)), ("binding", variable(r.binding)), ("body", block(r.body)),
                    ("slotCount", .int(r.slotCount)),
                ])
        case .saga(let s):
            return node(
                "saga", s.location,
                [
                    ("name", .string(s.name)), ("body", block(s.body)), ("slotCount", .int(s.slotCount)),
                ])
        case .function(let f):
            return node(
                "func", f.location,
                [
                    ("name", .string(f.name)), ("parameters", .list(f.parameters.map(variable))),
                    ("body", block(f.body)), ("slotCount", .int(f.slotCount)),
                ])
        }
    }

    static func variable(_ v: Variable) -> Value {
        node("variable", v.location, [("name", .string(v.name)), ("slot", .int(v.slot))])
    }

    static func block(_ b: Block) -> Value {
        node("block", b.location, [("statements", .list(b.statements.map(stmt)))])
    }

    static func rhs(_ r: Rhs) -> Value {
        switch r {
        case .expr(let e): return expr(e)
        case .effect(let e): return effect(e)
        }
    }

    static func stmt(_ s: Stmt) -> Value {
        switch s {
        case .declare(let v, let isMutable, let value, let at):
            return node(isMutable ? "var" : "let", at, [("variable", variable(v)), ("value", rhs(value))])
        case .assign(let target, let value, let at):
            var root: Value
            switch target.root {
            case .variable(let v): root = variable(v)
            case .state(let l): root = node("state", l)
            }
            let path: [Value] = target.path.map { step in
                switch step {
                case .member(let name): return record([("member", .string(name))])
                case .index(let e): return record([("index", expr(e))])
                }
            }
            return node("assign", at, [("target", root), ("path", .list(path)), ("value", rhs(value))])
        case .effect(let e, let at):
            return node("effect", at, [("effect", effect(e))])
        case .log(let e, let at): return node("log", at, [("value", expr(e))])
        case .throw(let e, let at): return node("throw", at, [("value", expr(e))])
        case .if(let arms, let elseBlock, let at):
            let list: [Value] = arms.map { record([("condition", expr($0.condition)), ("body", block($0.body))]) }
            return node("if", at, [("arms", .list(list)), ("else", optional(elseBlock, block))])
        case .while(let c, let b, let at): return node("while", at, [("condition", expr(c)), ("body", block(b))])
        case .loop(let b, let at): return node("loop", at, [("body", block(b))])
        case .for(let v, let e, let b, let at):
            return node("for", at, [("variable", variable(v)), ("sequence", expr(e)), ("body", block(b))])
        case .break(let at): return node("break", at)
        case .continue(let at): return node("continue", at)
        case .return(let e, let at): return node("return", at, [("value", optional(e, expr))])
        case .try(let body, let catchClause, let finallyBlock, let at):
            let catchValue = optional(catchClause) { c in
                record([("binding", variable(c.binding)), ("body", block(c.body))])
            }
            return node(
                "try", at, [("body", block(body)), ("catch", catchValue), ("finally", optional(finallyBlock, block))])
        case .transaction(let b, let at): return node("transaction", at, [("body", block(b))])
        case .compensate(let b, let at): return node("compensate", at, [("body", block(b))])
        }
    }

    static func pattern(_ p: Pattern) -> Value {
        switch p {
        case .any(let at): return node("anyPattern", at)
        case .expr(let e): return expr(e)
        }
    }

    static func callee(_ c: Callee) -> Value {
        switch c {
        case .named(let name, let at): return node("named", at, [("name", .string(name))])
        case .function(let index, let at): return node("function", at, [("index", .int(index))])
        case .host(let name, let at): return node("host", at, [("name", .string(name))])
        }
    }

    static func taskBody(_ body: TaskBody) -> [(String, Value)] {
        switch body {
        case .call(let c, let args): return [("callee", callee(c)), ("arguments", .list(args.map(expr)))]
        case .block(let b): return [("body", block(b))]
        }
    }

    static func entries(_ list: [EffectEntry]) -> Value {
        .list(list.map { record([("key", .string($0.key)), ("effect", effect($0.effect))]) })
    }

    static func effect(_ e: Effect) -> Value {
        switch e {
        case .take(let p, let condition, let at):
            return node("take", at, [("pattern", pattern(p)), ("where", optional(condition, expr))])
        case .put(let x, let y, let at): return node("put", at, [("target", expr(x)), ("value", optional(y, expr))])
        case .select(let s, let at): return node("select", at, [("selector", optional(s, expr))])
        case .close(let c, let at): return node("close", at, [("channel", expr(c))])
        case .flush(let c, let at): return node("flush", at, [("channel", expr(c))])
        case .call(let c, let args, let at):
            return node("call", at, [("callee", callee(c)), ("arguments", .list(args.map(expr)))])
        case .fork(let body, let at): return node("fork", at, taskBody(body))
        case .spawn(let body, let at): return node("spawn", at, taskBody(body))
        case .join(let t, let at): return node("join", at, [("task", expr(t))])
        case .cancel(let t, let at): return node("cancel", at, [("task", optional(t, expr))])
        case .delay(let d, let value, let at):
            return node("delay", at, [("duration", expr(d))] + (value.map { [("value", expr($0))] } ?? []))
        case .race(let list, let at): return node("race", at, [("entries", entries(list))])
        case .allRecord(let list, let at): return node("allRecord", at, [("entries", entries(list))])
        case .allList(let list, let at): return node("allList", at, [("effects", .list(list.map(effect)))])
        case .allFor(let v, let list, let body, let at):
            return node("allFor", at, [("variable", variable(v)), ("list", expr(list)), ("effect", effect(body))])
        case .retry(let count, let wait, let body, _, let at):
            var waitValue: Value = .null
            switch wait {
            case .delay(let d)?: waitValue = record([("delay", expr(d))])
            case .backoff(let d)?: waitValue = record([("backoff", expr(d))])
            case nil: break
            }
            return node("retry", at, [("count", expr(count)), ("wait", waitValue), ("effect", effect(body))])
        case .channel(let buffer, let kind, let at):
            return node("channel", at, [("buffer", optional(buffer, expr))] + bufferKind(buffer, kind))
        case .actionChannel(let p, let buffer, let kind, let at):
            return node(
                "actionChannel", at,
                [("pattern", pattern(p)), ("buffer", optional(buffer, expr))] + bufferKind(buffer, kind))
        case .watcher(let w):
            return node(
                w.kind.rawValue, w.location,
                [
                    ("duration", optional(w.duration, expr)), ("pattern", pattern(w.pattern)),
                    ("binding", variable(w.binding)), ("body", block(w.body)),
                ])
        }
    }

    static func expr(_ e: Expr) -> Value {
        switch e {
        case .literal(let v, let at): return node("literal", at, [("value", v)])
        case .interpolation(let parts, let at):
            let list: [Value] = parts.map { part in
                switch part {
                case .text(let t): return .string(t)
                case .expr(let e): return expr(e)
                }
            }
            return node("interpolation", at, [("parts", .list(list))])
        case .list(let items, let at): return node("list", at, [("elements", .list(items.map(expr)))])
        case .record(let fields, let at):
            let list: [Value] = fields.map { record([("key", .string($0.key)), ("value", expr($0.value))]) }
            return node("record", at, [("fields", .list(list))])
        case .variable(let v): return variable(v)
        case .state(let at): return node("state", at)
        case .cancelled(let at): return node("cancelled", at)
        case .it(let at): return node("it", at)
        case .member(let base, let name, let at):
            return node("member", at, [("object", expr(base)), ("name", .string(name))])
        case .index(let base, let index, let at):
            return node("index", at, [("object", expr(base)), ("index", expr(index))])
        case .unary(let op, let operand, let at):
            return node("unary", at, [("operator", .string(op.rawValue)), ("operand", expr(operand))])
        case .binary(let op, let l, let r, let at):
            return node("binary", at, [("operator", .string(op.rawValue)), ("left", expr(l)), ("right", expr(r))])
        case .builtin(let name, let args, let at):
            return node("builtin", at, [("name", .string(name)), ("arguments", .list(args.map(expr)))])
        }
    }
}
