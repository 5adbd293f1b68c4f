// The declarations of a large program checked on several threads at once.

import Dispatch
import SagaCore
import Synchronization

extension Checker {
    /// A unit's declarations in the program's merged list, and how to read them.
    struct UnitRun: Sendable {
        /// Where its declarations start and end in the merged list.
        var start: Int
        var end: Int
        /// Its ``SourceUnit/calleesArePlanned``.
        var calleesArePlanned: Bool
        /// Its ``SourceUnit/nameMap``.
        var nameMap: [Int32]
        /// How many function declarations come before it: where its planned callees count from.
        var functionsBefore = 0
    }

    /// What checking declarations gives, in declaration order.
    struct CheckedDeclarations: Sendable {
        var initialState: Expr?
        var stateLocation: SourceLocation?
        var reducers: [ReducerDecl] = []
        var sagas: [SagaDecl] = []
        var functions: [FunctionDecl] = []
    }

    /// What a checker of some declarations needs of the whole program: the names it declares,
    /// collected before any body is checked, and which a body's check only reads.
    struct ProgramTables: Sendable {
        var hostFunctions: Set<String>
        var declarationNames: NameTable
        var declaredNames: [DeclaredName]
        var functions: [FunctionInfo]
        var names: NameInterner
    }

    /// A checker of some declarations of the program whose names `tables` holds.
    init(tables: ProgramTables) {
        self.init(hostFunctions: tables.hostFunctions)
        declarationNames = tables.declarationNames
        declaredNames = tables.declaredNames
        functions = tables.functions
        names = tables.names
    }

    /// Up to `count` groups of consecutive units, of about as many declarations each; one
    /// group (or none) when they are to be checked on the caller's thread.
    ///
    /// Units are not split: a large file parsed in pieces (Parser+Pieces.swift) is a unit a
    /// piece, and only then is `parallelism` above 1.
    static func groups(of runs: [UnitRun], count: Int) -> [Range<Int>] {
        guard count > 1, runs.count > 1, let total = runs.last?.end, total > 0 else { return [0..<runs.count] }
        var groups: [Range<Int>] = []
        var start = 0
        for index in runs.indices {
            // A group ends with the unit that takes it to its share of the declarations; the
            // last takes the rest.
            let isLast = index + 1 == runs.count
            let isFull = groups.count + 1 < count && runs[index].end * count >= total * (groups.count + 1)
            guard isLast || isFull else { continue }
            groups.append(start..<index + 1)
            start = index + 1
        }
        return groups
    }

    /// Checks the declarations of each group of `runs` on a thread of its own, then adds
    /// what they declare, and what they report, in the order of the groups: the program and
    /// its diagnostics (once sorted by place, as the Frontend sorts them) are those of
    /// ``checkDeclarations(_:from:runs:into:)`` over all of them.
    ///
    /// A body's check reads the program's tables and writes only its own declaration and
    /// the checker's scopes, slots and diagnostics, which each thread has its own of. The
    /// `state` declarations, whose check depends on the one before, are checked first, here.
    mutating func checkAtOnce(
        _ declarations: inout [Declaration], runs: [UnitRun], groups: [Range<Int>],
        into checked: inout CheckedDeclarations
    ) {
        for index in declarations.indices {
            guard case .state = declarations[index] else { continue }
            var declaration = Declaration.import("", .unknown)
            swap(&declaration, &declarations[index])
            if case .state(let expr, let location) = declaration { checkState(expr, at: location, into: &checked) }
        }
        // Each group's declarations, moved (not copied) out of the list, so that each tree has
        // one reference and is changed in place.
        var parts: [[Declaration]] = []
        for group in groups {
            var part: [Declaration] = []
            part.reserveCapacity(runs[group.upperBound - 1].end - runs[group.lowerBound].start)
            for index in runs[group.lowerBound].start..<runs[group.upperBound - 1].end {
                var declaration = Declaration.import("", .unknown)
                swap(&declaration, &declarations[index])
                part.append(declaration)
            }
            parts.append(part)
        }
        let inputs = Mutex(parts)
        parts = []
        let outputs = Mutex<[(CheckedDeclarations, [Diagnostic])?]>(Array(repeating: nil, count: groups.count))
        let tables = ProgramTables(
            hostFunctions: hostFunctions, declarationNames: declarationNames, declaredNames: declaredNames,
            functions: functions, names: names)
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            var part: [Declaration] = []
            inputs.withLock { swap(&part, &$0[index]) }
            let group = groups[index]
            var checker = Checker(tables: tables)
            var result = CheckedDeclarations()
            checker.checkDeclarations(&part, from: runs[group.lowerBound].start, runs: runs[group], into: &result)
            let diagnostics = checker.diagnostics
            outputs.withLock { $0[index] = (result, diagnostics) }
        }
        let results = outputs.withLock { $0 }
        for case (let result, let diagnostics)? in results {
            checked.reducers += result.reducers
            checked.sagas += result.sagas
            checked.functions += result.functions
            self.diagnostics += diagnostics
        }
    }
}
