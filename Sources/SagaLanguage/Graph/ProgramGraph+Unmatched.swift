import SagaCore

extension ProgramGraph {
    /// Warnings for every action type a saga or function takes (with `take`, a watcher or an
    /// `actionChannel`), or a reducer reduces, that nothing can produce.
    ///
    /// Nothing produces a type when no `put` of the program does, no input type in
    /// `inputTypes` is it, and it is not a `persistence/` result (the persistence middleware
    /// dispatches those).
    ///
    /// Each points at the pattern of the first `take`, watcher or `actionChannel` of the saga
    /// or function that takes the type, and names a produced type one or two letters away;
    /// they come in the order of the places they point at.
    ///
    /// A program that puts a computed type (not a literal string) could produce anything, so
    /// it gets no warnings. Globs are matched the way the runtime matches them.
    package static func unmatchedTakes(_ program: Program, inputTypes: Set<String>) -> [Diagnostic] {
        GraphBuilder(program: program, includeReducers: false).unmatchedTakes(inputTypes: inputTypes)
    }
}

extension GraphBuilder {
    /// See ``ProgramGraph/unmatchedTakes(_:inputTypes:)``.
    func unmatchedTakes(inputTypes: Set<String>) -> [Diagnostic] {
        var produced = inputTypes
        for edge in rawEdges where edge.kind == .put {
            switch edge.to {
            case .action(.type(let type)): produced.insert(type)
            case .action(.unknown): return []
            default: continue
            }
        }
        var warnings: [Diagnostic] = []
        var seen: Set<String> = []
        for edge in rawEdges.sorted(by: { "\($0.from)\($0.to)" < "\($1.from)\($1.to)" }) where edge.kind == .take {
            guard case .action(.type(let pattern)) = edge.from, pattern != "*", !pattern.hasPrefix("persistence/")
            else {
                continue
            }
            let bytes = Array(pattern.utf8)
            if produced.contains(where: { Glob.matches(bytes[...], Array($0.utf8)[...]) }) { continue }
            let (name, declaration) = describe(edge.to)
            guard seen.insert("\(pattern) \(name)").inserted else { continue }
            let location =
                rawEdges.filter { $0.from == edge.from && $0.to == edge.to && $0.kind == .take }
                .compactMap { takeLocations[$0] }.min { ($0.line, $0.column) < ($1.line, $1.column) } ?? declaration
            let hint =
                Suggestions.closest(to: pattern, in: produced.sorted()).map { "; '\($0)' is produced: a typo?" } ?? ""
            warnings.append(
                Diagnostic(
                    .warning,
                    "\(name) takes '\(pattern)', but no put and no input line produces an action of that type\(hint)",
                    at: location))
        }
        // A reducer of a type nothing produces never runs: a misspelt type, most often.
        for reducer in program.reducers {
            for (pattern, location) in Self.literalTypes(reducer.pattern) {
                guard pattern != "*", !pattern.hasPrefix("persistence/") else { continue }
                let bytes = Array(pattern.utf8)
                if produced.contains(where: { Glob.matches(bytes[...], Array($0.utf8)[...]) }) { continue }
                let hint =
                    Suggestions.closest(to: pattern, in: produced.sorted()).map { "; '\($0)' is produced: a typo?" }
                    ?? ""
                warnings.append(
                    Diagnostic(
                        .warning,
                        "reduce '\(pattern)' never runs: no put and no input line produces an action of that type\(hint)",
                        at: location.line > 0 ? location : reducer.location))
            }
        }
        return warnings.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < (
                $1.location.file, $1.location.line, $1.location.column
            )
        }
    }

    /// The types a pattern names as string literals (its own, or its list's), each with where
    /// it is written.
    private static func literalTypes(_ pattern: Pattern) -> [(String, SourceLocation)] {
        guard case .expr(let expr) = pattern else { return [] }
        switch expr {
        case .literal(.string(let type), let at): return [(type, at)]
        case .list(let items, _): return items.flatMap { literalTypes(.expr($0)) }
        default: return []
        }
    }

    private func describe(_ end: Endpoint) -> (String, SourceLocation) {
        switch end {
        case .channel(let i) where i < channels.count:
            // An `actionChannel`'s pattern: the saga or function that made the channel takes it.
            return describe(channels[i].owner)
        case .saga(let i) where i < program.sagas.count:
            return ("saga \(program.sagas[i].name)", program.sagas[i].location)
        case .function(let i) where i < program.functions.count:
            return ("func \(program.functions[i].name)", program.functions[i].location)
        default: return ("a saga", .unknown)
        }
    }
}
