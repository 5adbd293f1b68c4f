import SagaCore

extension Checker {
    /// Checks the declarations of every unit, in the order given, and builds the program.
    ///
    /// - Parameters:
    ///   - units: the parsed files, in the order their declarations are to be merged.
    ///   - files: the file table (the root first), stored in the program.
    /// - Returns: the program with every name resolved, or `nil` when an error was reported.
    mutating func check(units: consuming [SourceUnit], files: [SourceFile]) -> Program? {
        // The units are let go of and each declaration is swapped out of the list for an
        // import, so that it is the only reference to its tree while it is checked in place
        // (see ``checkExpr(_:)``); when the caller still holds the units, the tree is copied
        // where it changes, as before. (Swapped rather than taken off the end of a reversed
        // list: reversing moved every declaration, and so did appending the first unit's list
        // rather than taking it whole; callgrind, `sagabench parse-check`.)
        var declarations: [Declaration] = []
        // Where each unit's declarations end in the merged list, whether its callees are
        // planned (see ``plannedCalleeOffset``), and how its names' numbers map to the program's.
        var unitEnds: [(end: Int, calleesArePlanned: Bool, nameMap: [Int32])] = []
        unitEnds.reserveCapacity(units.count)
        for i in units.indices {
            unitEnds.append(
                (declarations.count + units[i].declarations.count, units[i].calleesArePlanned, units[i].nameMap))
            if declarations.isEmpty {
                swap(&declarations, &units[i].declarations)
            } else {
                declarations += units[i].declarations
                units[i].declarations = []
            }
        }
        units = []
        let (reducerCount, sagaCount) = collectNames(declarations)

        var initialState: Expr?
        var stateLocation: SourceLocation?
        // Sized once: grown by doubling, a large program's lists were copied a dozen times,
        // and each large buffer let go of made the allocator sweep its small free chunks
        // (callgrind, `sagabench parse-check`).
        var reducers: [ReducerDecl] = []
        reducers.reserveCapacity(reducerCount)
        var sagas: [SagaDecl] = []
        sagas.reserveCapacity(sagaCount)
        var functionDecls: [FunctionDecl] = []
        functionDecls.reserveCapacity(functions.count)
        var unit = -1
        var unitEnd = 0
        for index in declarations.indices {
            while index == unitEnd, unit + 1 < unitEnds.count {
                // A new unit: its planned callees count from its first function.
                unit += 1
                unitEnd = unitEnds[unit].end
                plannedCalleeOffset = unitEnds[unit].calleesArePlanned ? functionDecls.count : nil
                nameMap = unitEnds[unit].nameMap
            }
            var declaration = Declaration.import("", .unknown)
            swap(&declaration, &declarations[index])
            switch declaration {
            case .import:
                continue  // the Frontend has read it already
            case .state(let expr, let location):
                if let first = stateLocation {
                    error(
                        "more than one 'state' declaration; a program has at most one", at: location,
                        note: ("first 'state' declared here", first))
                    continue
                }
                stateLocation = location
                initialState = checkInitialState(expr)
            // Each declaration is let go of (an import in its place) before its tree is changed,
            // its parts taken out by a `guard case` (see ``checkExpr(_:)`` for why).
            case .reducer:
                guard case .reducer(var reducer) = declaration else { continue }
                declaration = .import("", reducer.location)
                checkReducer(&reducer)
                reducers.append(reducer)
            case .saga:
                guard case .saga(var saga) = declaration else { continue }
                declaration = .import("", saga.location)
                checkSaga(&saga)
                sagas.append(saga)
            case .function:
                guard case .function(var function) = declaration else { continue }
                declaration = .import("", function.location)
                checkFunction(&function)
                functionDecls.append(function)
            }
        }
        guard !hasErrors else { return nil }
        return Program(
            files: files, initialState: initialState, reducers: reducers, sagas: sagas,
            functions: functionDecls)
    }

    /// Indexes functions and sagas by name (one namespace) before any body is checked, so a
    /// function may be called before it is declared.
    ///
    /// - Returns: how many reducers and root sagas there are, to size their lists.
    private mutating func collectNames(_ declarations: [Declaration]) -> (reducers: Int, sagas: Int) {
        var reducers = 0
        var sagas = 0
        declarationNames = NameTable(capacity: declarations.count)
        // Sized once: grown one name at a time, the two lists were copied a dozen times
        // over for a large program (callgrind, `sagabench parse-check`).
        functions.reserveCapacity(declarations.count)
        declaredNames.reserveCapacity(declarations.count)
        for index in declarations.indices {
            switch Self.head(of: declarations[index]) {
            case .reducer:
                reducers += 1
            case .saga(let name, let location):
                sagas += 1
                collectName(name, at: location, function: -1)
            case .function(let name, let arity, let location):
                functions.append(FunctionInfo(name: name, arity: arity, location: location))
                collectName(name, at: location, function: functions.count - 1)
            case .other:
                continue
            }
        }
        return (reducers, sagas)
    }

    /// What ``collectNames(_:)`` reads of a declaration.
    private enum Head {
        case reducer
        case saga(String, SourceLocation)
        case function(String, arity: Int, SourceLocation)
        case other
    }

    /// The name, place and arity of a declaration, read where it lies: switching over the
    /// declaration itself copied each one whole, retaining its body and parameters, to read
    /// its name (callgrind, `sagabench parse-check`).
    private static func head(of declaration: Declaration) -> Head {
        switch declaration {
        case .reducer: return .reducer
        case .saga(let saga): return .saga(saga.name, saga.location)
        case .function(let function):
            return .function(function.name, arity: function.parameters.count, function.location)
        case .import, .state: return .other
        }
    }

    /// Enters a declared name (a saga's when `function` is -1), reporting a redeclaration.
    private mutating func collectName(_ name: String, at location: SourceLocation, function: Int) {
        let hash = NameTable.hash(name)
        guard let entry = declarationNames.value(for: name, hash: hash) else {
            declarationNames.set(declaredNames.count, for: name, hash: hash)
            declaredNames.append(DeclaredName(location: location, function: function, isSaga: function < 0))
            return
        }
        if function < 0 {
            declaredNames[entry].isSaga = true
        } else if declaredNames[entry].function < 0 {
            declaredNames[entry].function = function
        }
        error(
            "invalid redeclaration of '\(name)'", at: location,
            note: ("'\(name)' previously declared here", declaredNames[entry].location))
    }

    /// The initial state must be a record literal; its values are plain expressions with no
    /// variables in scope.
    private mutating func checkInitialState(_ expr: Expr) -> Expr {
        beginDeclaration()
        guard case .record(let fields, _) = expr else {
            error("'state' must be a record literal, as in state { count: 0 }", at: expr.location)
            return expr
        }
        for field in fields where field.key == "persistence" {
            error("the state key 'persistence' is reserved for the persistence reducer", at: field.value.location)
        }
        var result = expr
        checkExpr(&result)
        return result
    }

    /// A reducer: its binding takes slot 0; inside, `state` may be read and assigned and no
    /// effect may run.
    private mutating func checkReducer(_ reducer: inout ReducerDecl) {
        beginDeclaration()
        checkPattern(&reducer.pattern)
        declare(&reducer.binding, isMutable: false)
        context.inReducer = true
        checkBlock(&reducer.body)
        reducer.slotCount = nextSlot
    }

    /// A root saga.
    private mutating func checkSaga(_ saga: inout SagaDecl) {
        beginDeclaration()
        checkBlock(&saga.body)
        saga.slotCount = nextSlot
    }

    /// A saga function: parameters take slots `0..<n` and may be assigned, as `var`s.
    private mutating func checkFunction(_ function: inout FunctionDecl) {
        beginDeclaration()
        // Resolved in place, in the list taken out of the declaration (so that it is the only
        // reference to it), rather than copied into a new list.
        var parameters: [Variable] = []
        swap(&parameters, &function.parameters)
        for i in parameters.indices {
            // Only the first of duplicate parameters is declared, so the declaration's scope
            // finds it (a dictionary of its own per function cost an allocation each).
            if let previous = scopes.declaredInInnermostScope(nameID(of: parameters[i])) {
                let name = parameters[i].name
                error(
                    "duplicate parameter name '\(name)'", at: parameters[i].location,
                    note: ("'\(name)' previously declared here", previous.location))
                parameters[i].slot = nextSlot
                nextSlot += 1
            } else {
                declare(&parameters[i], isMutable: true)
            }
        }
        function.parameters = parameters
        checkBlock(&function.body)
        function.slotCount = nextSlot
    }
}
