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
        /// Its ``SourceUnit/plannedFunctionsBase``.
        var plannedFunctionsBase = 0
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
        var declaredNames: DeclaredNames
        var functions: [FunctionInfo]
        var names: NameInterner
    }

    /// A checker of some declarations of the program whose names `tables` holds.
    init(tables: ProgramTables) {
        self.init(hostFunctions: tables.hostFunctions)
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

    /// Checks each of `lists`, the declarations of a group of `runs`, on a thread of its own,
    /// then adds what they declare, and what they report, in the order of the groups: the
    /// program and its diagnostics (once sorted by place, as the Frontend sorts them) are
    /// those of ``checkDeclarations(_:from:runs:into:)`` over all of them.
    ///
    /// A body's check reads the program's tables and writes only its own declaration and
    /// the checker's scopes, slots and diagnostics, which each thread has its own of. The
    /// `state` declarations, whose check depends on the one before, are checked first, here.
    mutating func checkAtOnce(
        _ lists: inout [[Declaration]], runs: [UnitRun], groups: [Range<Int>],
        into checked: inout CheckedDeclarations
    ) {
        for list in lists.indices {
            for index in lists[list].indices {
                guard case .state = lists[list][index] else { continue }
                var declaration = Declaration.import("", .unknown)
                swap(&declaration, &lists[list][index])
                if case .state(let expr, let location) = declaration { checkState(expr, at: location, into: &checked) }
            }
        }
        // Moved (not copied) into the lock, so that each tree has one reference and is changed
        // in place.
        var taken: [[Declaration]] = []
        swap(&taken, &lists)
        let inputs = Mutex(taken)
        taken = []
        let outputs = Mutex<[(CheckedDeclarations, [Diagnostic], Set<String>)?]>(
            Array(repeating: nil, count: groups.count))
        let tables = ProgramTables(
            hostFunctions: hostFunctions, declaredNames: declaredNames,
            functions: functions, names: names)
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            var list: [Declaration] = []
            inputs.withLock { swap(&list, &$0[index]) }
            let group = groups[index]
            var checker = Checker(tables: tables)
            var result = CheckedDeclarations()
            DeepStack.run {
                checker.checkDeclarations(&list, from: runs[group.lowerBound].start, runs: runs[group], into: &result)
            }
            let (diagnostics, callees) = (checker.diagnostics, checker.hostCallees)
            outputs.withLock { $0[index] = (result, diagnostics, callees) }
        }
        // Taken out of the lock, so that the first group's lists are taken whole and the
        // others' copied once.
        var results: [(CheckedDeclarations, [Diagnostic], Set<String>)?] = []
        outputs.withLock { swap(&results, &$0) }
        for index in results.indices {
            guard case (var result, let diagnostics, let callees)? = results[index] else { continue }
            hostCallees.formUnion(callees)
            results[index] = nil
            Self.append(&result.reducers, to: &checked.reducers)
            Self.append(&result.sagas, to: &checked.sagas)
            Self.append(&result.functions, to: &checked.functions)
            self.diagnostics += diagnostics
        }
    }

    /// Appends `items` to `list`, taking them whole when `list` is empty.
    private static func append<T>(_ items: inout [T], to list: inout [T]) {
        if list.isEmpty {
            swap(&items, &list)
        } else {
            list += items
        }
    }
}
