// Walks a checked program and collects who calls, forks, spawns, puts and takes what, then
// numbers everything in a fixed order so the same program always gives the same diagram.

import SagaCore

/// Builds the ``GraphModel`` of a ``Program``.
///
/// Every statement is walked, nested blocks included: `if`/`while`/`loop`/`for` bodies,
/// `try`/`catch`/`finally`, `transaction`/`compensate`, blocks given to `fork` and `spawn`,
/// watcher bodies, `race`/`all` entries and the effect under `retry`. What such a block does
/// is drawn as done by the saga or function it is written in: an inline block has no name to
/// draw it under, and a watcher is part of the saga that starts it.
struct GraphBuilder {
    /// An end of an edge before ids are given out.
    enum Endpoint: Hashable {
        case saga(Int)
        case function(Int)
        case host(String)
        case reducer(Int)
        case action(ActionKey)
        /// A channel a saga or function makes (`let ch = channel`), by its index in
        /// ``channels``.
        case channel(Int)
        /// The persistence middleware `sagarun run` puts in front of the store.
        case persistence
    }

    /// The requests the persistence middleware handles, each with the types it answers with.
    static let persistenceReplies: [(request: String, replies: [String])] = [
        ("persistence/save", ["persistence/saved", "persistence/saveFailed"]),
        ("persistence/delete", ["persistence/deleted", "persistence/deleteFailed"]),
        ("persistence/request", ["persistence/received", "persistence/requestFailed"]),
        ("persistence/cancelRequest", ["persistence/canceled"]),
    ]

    /// An action node: a type (or pattern) written as a literal string, or `?` for one
    /// computed at run time.
    enum ActionKey: Hashable, Comparable {
        case type(String)
        case unknown
    }

    struct RawEdge: Hashable {
        var from: Endpoint
        var to: Endpoint
        var kind: GraphModel.EdgeKind
        var label: String
    }

    let program: Program
    private let includeReducers: Bool
    private var edges: Set<RawEdge> = []

    /// Every edge found, before ids are given out.
    var rawEdges: Set<RawEdge> { edges }
    /// Where each `take` edge is first written: the `take`, watcher or `actionChannel`.
    private(set) var takeLocations: [RawEdge: SourceLocation] = [:]
    private var hosts: Set<String> = []
    private var actions: Set<ActionKey> = []
    /// Every channel made by a `let`, `var` or assignment of `channel` or `actionChannel`, or
    /// given by a host function (``host``, its name: an event channel), with the variable's
    /// name, in the order met.
    ///
    /// A host function's result is drawn as a channel only where a `take`, watcher or `put`
    /// treats it as one.
    private(set) var channels: [(name: String, owner: Endpoint, host: String?)] = []
    /// The channels of the declaration being walked, by the slot of the variable holding one
    /// (or, for a function's parameter, each channel its calls pass there): a `put`, `take` or
    /// watcher that names the variable reaches them.
    private var channelsBySlot: [Int: Set<Int>] = [:]
    /// The patterns of the declaration being walked that a `let` names, by the variable's slot:
    /// a string literal, or a list (of string literals, or anything else, drawn as `?`).
    private var patternsBySlot: [Int: Expr] = [:]

    /// The channels passed to functions' parameters, by function and parameter slot: a `take`
    /// or `put` naming the parameter reaches each channel a `call`, `fork` or `spawn` of the
    /// function passes there.
    private let parameterChannels: [Int: [Int: Set<Int>]]
    /// ``parameterChannels`` as the walk finds them.
    private var passedChannels: [Int: [Int: Set<Int>]] = [:]
    /// The channels each function returns (`return ch`), by function: a variable given a `call`
    /// of the function holds them (a helper that makes an event channel and returns it).
    private let returnChannels: [Int: Set<Int>]
    /// ``returnChannels`` as the walk finds them.
    private var returnedChannels: [Int: Set<Int>] = [:]
    /// The action types passed to functions' parameters that are not channels, by function and
    /// parameter slot (`fork listen("evt/sent")`): a `take`, watcher or `put` naming the
    /// parameter reaches them, and `?` where some call passes a value computed at run time.
    private let parameterKeys: [Int: [Int: Set<ActionKey>]]
    /// ``parameterKeys`` as the walk finds them.
    private var passedKeys: [Int: [Int: Set<ActionKey>]] = [:]
    /// The action types of the parameters of the function being walked (see ``parameterKeys``).
    private var keysBySlot: [Int: Set<ActionKey>] = [:]

    /// Collects every edge of `program`.
    ///
    /// Walked again, afresh, while the walk finds channels passed to parameters or returned by
    /// functions that it did not know of (a channel handed on from function to function), a few
    /// times at most.
    init(program: Program, includeReducers: Bool) {
        var built = GraphBuilder(
            program: program, includeReducers: includeReducers, parameterChannels: [:], returnChannels: [:],
            parameterKeys: [:])
        for _ in 0..<3
        where built.passedChannels != built.parameterChannels || built.returnedChannels != built.returnChannels
            || built.passedKeys != built.parameterKeys
        {
            built = GraphBuilder(
                program: program, includeReducers: includeReducers, parameterChannels: built.passedChannels,
                returnChannels: built.returnedChannels, parameterKeys: built.passedKeys)
        }
        self = built
    }

    /// One walk of `program`, with the channels known to be passed to parameters and returned by
    /// functions.
    private init(
        program: Program, includeReducers: Bool, parameterChannels: [Int: [Int: Set<Int>]],
        returnChannels: [Int: Set<Int>], parameterKeys: [Int: [Int: Set<ActionKey>]]
    ) {
        self.program = program
        self.includeReducers = includeReducers
        self.parameterChannels = parameterChannels
        self.returnChannels = returnChannels
        self.parameterKeys = parameterKeys
        walkDeclarations()
        if includeReducers {
            for (i, reducer) in program.reducers.enumerated() {
                for key in actionKeys(reducer.pattern) { add(.action(key), .reducer(i), .reduce, "reduce") }
            }
        }
        addMatches()
        addPersistence()
    }

    private mutating func walkDeclarations() {
        for (i, saga) in program.sagas.enumerated() {
            channelsBySlot = [:]
            patternsBySlot = [:]
            keysBySlot = [:]
            walk(saga.body, from: .saga(i))
        }
        for (i, function) in program.functions.enumerated() {
            channelsBySlot = parameterChannels[i] ?? [:]
            patternsBySlot = [:]
            keysBySlot = parameterKeys[i] ?? [:]
            walk(function.body, from: .function(i))
        }
    }

    /// Notes the channels, and the action types, among the arguments of a call, fork or spawn
    /// of a function.
    private mutating func passed(_ arguments: [Expr], to callee: Callee) {
        guard case .function(let index, _) = callee, program.functions.indices.contains(index) else { return }
        let parameters = program.functions[index].parameters
        for (k, argument) in arguments.enumerated() where k < parameters.count {
            let slot = parameters[k].slot
            if case .variable(let variable) = argument, let held = channelsBySlot[variable.slot] {
                passedChannels[index, default: [:]][slot, default: []].formUnion(held)
                // A parameter given channels alone is a channel where a `take` names it.
                if let keys = keysBySlot[variable.slot] {
                    passedKeys[index, default: [:]][slot, default: []].formUnion(keys)
                }
                continue
            }
            passedKeys[index, default: [:]][slot, default: []].formUnion(actionKeys(argument))
        }
    }

    /// Whether `expr` names a parameter given action types as well as channels (see
    /// ``parameterKeys``): a `take`, watcher or `put` naming it reaches both.
    private func alsoHoldsTypes(_ expr: Expr) -> Bool {
        guard case .variable(let variable) = expr, let keys = keysBySlot[variable.slot] else { return false }
        return !keys.isEmpty
    }

    private func alsoHoldsTypes(_ pattern: Pattern) -> Bool {
        guard case .expr(let expr) = pattern else { return false }
        return alsoHoldsTypes(expr)
    }

    /// Where a declaration stands, for a label: `line:column`, after the file's path (as
    /// diagnostics show it) when it is not the root file (one the program imports).
    private func place(_ location: SourceLocation) -> String {
        let at = "\(location.line):\(location.column)"
        let file = Int(location.file)
        guard file > 0, file < program.files.count else { return at }
        return "\(program.files[file].path):\(at)"
    }

    /// The diagram: nodes in a fixed order (sagas, functions and host functions by name, reducers
    /// in declaration order, action types sorted, `?` after them, channels in the order made),
    /// edges sorted by their ends.
    func model() -> GraphModel {
        var endpoints: [Endpoint] = []
        var nodes: [GraphModel.Node] = []
        var usedIDs: Set<String> = []
        func node(_ end: Endpoint, _ id: String, _ kind: GraphModel.NodeKind, _ label: String) {
            var unique = id
            var n = 2
            while usedIDs.contains(unique) {
                unique = "\(id)_\(n)"
                n += 1
            }
            usedIDs.insert(unique)
            endpoints.append(end)
            nodes.append(GraphModel.Node(id: unique, kind: kind, label: label))
        }
        let sagas = program.sagas.indices.sorted { (program.sagas[$0].name, $0) < (program.sagas[$1].name, $1) }
        for i in sagas {
            let name = program.sagas[i].name
            node(.saga(i), GraphBuilder.identifier("saga", name), .saga, "saga \(name)")
        }
        let functions = program.functions.indices.sorted {
            (program.functions[$0].name, $0) < (program.functions[$1].name, $1)
        }
        for i in functions {
            let f = program.functions[i]
            let parameters = f.parameters.map(\.name).joined(separator: ", ")
            node(.function(i), GraphBuilder.identifier("fn", f.name), .function, "func \(f.name)(\(parameters))")
        }
        for name in hosts.sorted() {
            node(.host(name), GraphBuilder.identifier("host", name), .host, "host \(name)")
        }
        if edges.contains(where: { $0.from == .persistence || $0.to == .persistence }) {
            node(.persistence, "mw_persistence", .middleware, "persistence middleware")
        }
        if includeReducers {
            for (i, reducer) in program.reducers.enumerated() {
                node(.reducer(i), "red_\(i)", .reducer, "reducer at \(place(reducer.location))")
            }
        }
        for (n, key) in actions.sorted().enumerated() {
            switch key {
            case .type(let type): node(.action(key), "act_\(n)", .action, type)
            case .unknown: node(.action(key), "act_\(n)", .action, "?")
            }
        }
        // A host function's result that nothing takes from or puts into as a channel is none.
        var edges = edges
        var reached: Set<Endpoint> = []
        for edge in edges { reached.formUnion([edge.from, edge.to]) }
        var shown = 0
        for (n, channel) in channels.enumerated() {
            if let host = channel.host {
                guard reached.contains(.channel(n)) else { continue }
                edges.insert(RawEdge(from: .host(host), to: .channel(n), kind: .put, label: "events"))
            }
            node(.channel(n), "chan_\(shown)", .channel, "channel \(channel.name)")
            shown += 1
        }
        var position: [Endpoint: Int] = [:]
        for (i, end) in endpoints.enumerated() { position[end] = i }
        var modelEdges: [GraphModel.Edge] = []
        for edge in edges {
            guard let from = position[edge.from], let to = position[edge.to] else { continue }
            modelEdges.append(GraphModel.Edge(from: from, to: to, kind: edge.kind, label: edge.label))
        }
        modelEdges.sort { ($0.from, $0.to, $0.kind, $0.label) < ($1.from, $1.to, $1.kind, $1.label) }
        return GraphModel(nodes: nodes, edges: modelEdges)
    }

    /// `prefix_name` with every character outside `[A-Za-z0-9_]` (the dot of `api.fetch`,
    /// say) turned into `_`: an identifier in both Mermaid and DOT.
    static func identifier(_ prefix: String, _ name: String) -> String {
        let safe = name.unicodeScalars.map { scalar -> String in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_": return String(scalar)
            default: return "_"
            }
        }
        return prefix + "_" + safe.joined()
    }

    // MARK: - Walking

    private mutating func walk(_ block: Block, from owner: Endpoint) {
        for statement in block.statements { walk(statement, from: owner) }
    }

    private mutating func walk(_ statement: Stmt, from owner: Endpoint) {
        switch statement {
        case .declare(let variable, _, .effect(let effect), _):
            walk(effect, from: owner, into: variable)
        case .assign(let target, .effect(let effect), _):
            if target.path.isEmpty, case .variable(let variable) = target.root {
                walk(effect, from: owner, into: variable)
            } else {
                walk(effect, from: owner)
            }
        case .declare(let variable, false, .expr(let value), _):
            // `let kinds = ["a", "b"]`: a `take kinds` takes those types.
            if case .literal(.string, _) = value { patternsBySlot[variable.slot] = value }
            if case .list = value { patternsBySlot[variable.slot] = value }
        case .declare, .assign:
            break
        case .effect(let effect, _):
            walk(effect, from: owner)
        case .if(let arms, let elseBlock, _):
            for arm in arms { walk(arm.body, from: owner) }
            if let elseBlock { walk(elseBlock, from: owner) }
        case .while(_, let body, _), .loop(let body, _), .for(_, _, let body, _), .transaction(let body, _),
            .compensate(let body, _):
            walk(body, from: owner)
        case .try(let body, let catchClause, let finallyBlock, _):
            walk(body, from: owner)
            if let catchClause { walk(catchClause.body, from: owner) }
            if let finallyBlock { walk(finallyBlock, from: owner) }
        case .return(.variable(let variable)?, _):
            guard case .function(let index) = owner, let held = channelsBySlot[variable.slot] else { break }
            returnedChannels[index, default: []].formUnion(held)
        case .log, .throw, .break, .continue, .return:
            break
        }
    }

    /// An effect whose result goes into `variable`: a channel made there gets a node of its
    /// own, which later effects naming the variable reach.
    private mutating func walk(_ effect: Effect, from owner: Endpoint, into variable: Variable) {
        switch effect {
        case .channel:
            channelsBySlot[variable.slot] = [channels.count]
            channels.append((variable.name, owner, nil))
        case .actionChannel(let pattern, _, _, let location):
            let channel = channels.count
            channelsBySlot[variable.slot] = [channel]
            channels.append((variable.name, owner, nil))
            taken(pattern, by: .channel(channel), label: "actionChannel", at: location)
        case .call(.host(let name, _), _, _), .call(.named(let name, _), _, _):
            channelsBySlot[variable.slot] = [channels.count]
            channels.append((variable.name, owner, name))
            walk(effect, from: owner)
        case .call(.function(let index, _), _, _):
            if let returned = returnChannels[index] { channelsBySlot[variable.slot] = returned }
            walk(effect, from: owner)
        default:
            walk(effect, from: owner)
        }
    }

    /// The channel nodes an expression names, when it is a variable holding a channel (a
    /// parameter may hold one of several); empty otherwise.
    private func channels(_ expr: Expr) -> [Endpoint] {
        guard case .variable(let variable) = expr, let held = channelsBySlot[variable.slot] else { return [] }
        return held.sorted().map { .channel($0) }
    }

    /// The channel nodes a pattern names, when it is a variable holding a channel.
    private func channels(_ pattern: Pattern) -> [Endpoint] {
        guard case .expr(let expr) = pattern else { return [] }
        return channels(expr)
    }

    private mutating func walk(_ effect: Effect, from owner: Endpoint) {
        switch effect {
        case .take(let pattern, _, let location) where !channels(pattern).isEmpty:
            for source in channels(pattern) { add(source, owner, .take, "take") }
            if alsoHoldsTypes(pattern) { taken(pattern, by: owner, label: "take", at: location) }
        case .take(let pattern, _, let location):
            taken(pattern, by: owner, label: "take", at: location)
        case .actionChannel(let pattern, _, _, let location):
            taken(pattern, by: owner, label: "actionChannel", at: location)
        case .watcher(let watcher):
            let sources = channels(watcher.pattern)
            for source in sources { add(source, owner, .take, watcher.kind.rawValue) }
            if sources.isEmpty || alsoHoldsTypes(watcher.pattern) {
                taken(watcher.pattern, by: owner, label: watcher.kind.rawValue, at: watcher.location)
            }
            walk(watcher.body, from: owner)
        case .put(let target, let payload?, _) where !channels(target).isEmpty:
            for destination in channels(target) { add(owner, destination, .put, "put") }
            if alsoHoldsTypes(target) {
                for key in putKeys(target, payload) { add(owner, .action(key), .put, "put") }
            }
        case .put(let target, let payload, _):
            for key in putKeys(target, payload) { add(owner, .action(key), .put, "put") }
        case .call(let callee, let arguments, _):
            passed(arguments, to: callee)
            started(callee, by: owner, kind: .call)
        case .fork(let body, _):
            started(body, by: owner, kind: .fork)
        case .spawn(let body, _):
            started(body, by: owner, kind: .spawn)
        case .race(let entries, _), .allRecord(let entries, _):
            for entry in entries { walk(entry.effect, from: owner) }
        case .allList(let effects, _):
            for inner in effects { walk(inner, from: owner) }
        case .allFor(_, _, let inner, _), .retry(_, _, let inner, _, _):
            walk(inner, from: owner)
        case .select, .join, .cancel, .delay, .channel, .close, .flush:
            break
        }
    }

    private mutating func started(_ body: TaskBody, by owner: Endpoint, kind: GraphModel.EdgeKind) {
        switch body {
        case .call(let callee, let arguments):
            passed(arguments, to: callee)
            started(callee, by: owner, kind: kind)
        case .block(let block): walk(block, from: owner)
        }
    }

    private mutating func started(_ callee: Callee, by owner: Endpoint, kind: GraphModel.EdgeKind) {
        let label = kind == .call ? "call" : kind == .fork ? "fork" : "spawn"
        switch callee {
        case .function(let index, _):
            // A checked program never holds a bad index; skipping one keeps bad input from crashing.
            guard program.functions.indices.contains(index) else { return }
            add(owner, .function(index), kind, label)
        case .host(let name, _), .named(let name, _):
            hosts.insert(name)
            add(owner, .host(name), kind, label)
        }
    }

    /// Edges from the action types of `pattern` to `owner`, each first written at the pattern
    /// of the `take`, watcher or `actionChannel` at `location`.
    private mutating func taken(_ pattern: Pattern, by owner: Endpoint, label: String, at effect: SourceLocation) {
        // Each element of a list literal is first written where it stands.
        if case .expr(.list(let items, _)) = pattern, !items.isEmpty {
            for item in items { taken(.expr(item), by: owner, label: label, at: effect) }
            return
        }
        let location = pattern.location.line > 0 ? pattern.location : effect
        for key in actionKeys(pattern) {
            add(.action(key), owner, .take, label)
            let edge = RawEdge(from: .action(key), to: owner, kind: .take, label: label)
            if takeLocations[edge] == nil { takeLocations[edge] = location }
        }
    }

    private mutating func add(
        _ from: Endpoint, _ to: Endpoint, _ kind: GraphModel.EdgeKind, _ label: String
    ) {
        for end in [from, to] {
            if case .action(let key) = end { actions.insert(key) }
        }
        edges.insert(RawEdge(from: from, to: to, kind: kind, label: label))
    }

    // MARK: - Action types

    /// The action nodes a pattern stands for: `*` as the type `"*"` (a string `"*"` means the
    /// same), a string as itself, a list literal as its elements, anything else as `?`.
    private func actionKeys(_ pattern: Pattern) -> [ActionKey] {
        switch pattern {
        case .any: return [.type("*")]
        case .expr(let expr): return actionKeys(expr)
        }
    }

    private func actionKeys(_ expr: Expr) -> [ActionKey] {
        switch expr {
        case .literal(.string(let type), _): return [.type(type)]
        case .list(let items, _): return items.isEmpty ? [.unknown] : items.flatMap(actionKeys)
        case .variable(let variable):
            if let keys = keysBySlot[variable.slot], !keys.isEmpty { return keys.sorted() }
            guard let value = patternsBySlot[variable.slot] else { return [.unknown] }
            return actionKeys(value)
        default: return [.unknown]
        }
    }

    /// The type a `put` dispatches: `put "t" …`, `put t …` of a `let t = "t"`, or
    /// `put {type: "t", …}` (the last `type` field wins, as in a record literal); `?` for
    /// anything computed, a channel put included.
    private func putKeys(_ target: Expr, _ payload: Expr?) -> [ActionKey] {
        switch target {
        case .literal(.string(let type), _):
            return [.type(type)]
        case .variable(let variable):
            if let keys = keysBySlot[variable.slot], !keys.isEmpty { return keys.sorted() }
            guard case .literal(.string(let type), _)? = patternsBySlot[variable.slot] else { return [.unknown] }
            return [.type(type)]
        case .record(let fields, _) where payload == nil:
            if let field = fields.last(where: { $0.key == "type" }), case .literal(.string(let type), _) = field.value {
                return [.type(type)]
            }
            return [.unknown]
        default:
            return [.unknown]
        }
    }

    /// The persistence middleware, where the diagram has its actions: each request type in it
    /// goes to the middleware (`handles`), which puts each reply type in it.
    private mutating func addPersistence() {
        for (request, replies) in Self.persistenceReplies {
            if actions.contains(.type(request)) { add(.action(.type(request)), .persistence, .take, "handles") }
            for reply in replies where actions.contains(.type(reply)) {
                add(.persistence, .action(.type(reply)), .put, "put")
            }
        }
    }

    /// An exact type that a glob pattern in the diagram matches gets a `matches` edge to it,
    /// so that a `put "user/login"` visibly reaches a `take "user/*"`.
    ///
    /// The bare `*` gets none: it plainly matches everything, and an edge from every type
    /// would bury the diagram.
    private mutating func addMatches() {
        var exact: [String] = []
        var globs: [String] = []
        for case .type(let type) in actions {
            if type.utf8.contains(UInt8(ascii: "*")) { globs.append(type) } else { exact.append(type) }
        }
        for glob in globs where glob != "*" {
            let pattern = Array(glob.utf8)
            for type in exact where Glob.matches(pattern[...], Array(type.utf8)[...]) {
                add(.action(.type(type)), .action(.type(glob)), .matches, "matches")
            }
        }
    }
}
