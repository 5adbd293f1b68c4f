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
        // where it changes. (Swapped rather than taken off the end of a reversed list:
        // reversing would move every declaration, and so would appending the first unit's list
        // rather than taking it whole.)
        var runs: [UnitRun] = []
        runs.reserveCapacity(units.count)
        var count = 0
        for i in units.indices {
            let size = units[i].declarations.count
            runs.append(
                UnitRun(
                    start: count, end: count + size, calleesArePlanned: units[i].calleesArePlanned,
                    nameMap: units[i].nameMap, plannedFunctionsBase: units[i].plannedFunctionsBase))
            count += size
        }
        // One list a group of units, each checked on a thread of its own when there are several
        // (Checker+AtOnce.swift): the units of a group are merged, a unit alone is taken whole
        // (merging every unit would copy a large file's pieces into one list and out again).
        let groups = Self.groups(of: runs, count: parallelism)
        // Each unit's heads, as the parser noted them, taken before the declarations are
        // moved out (which lets the notes go).
        var heads: [[DeclarationHead]] = []
        heads.reserveCapacity(units.count)
        for i in units.indices { heads.append(units[i].heads ?? units[i].declarations.map(DeclarationHead.init)) }
        var lists: [[Declaration]] = []
        lists.reserveCapacity(groups.count)
        for group in groups {
            var declarations: [Declaration] = []
            for i in group {
                if declarations.isEmpty {
                    swap(&declarations, &units[i].declarations)
                } else {
                    declarations += units[i].declarations
                    units[i].declarations = []
                }
            }
            lists.append(declarations)
        }
        units = []
        let (reducerCount, sagaCount) = collectNames(heads, runs: &runs)

        // Sized once: grown by doubling, a large program's lists would be copied at every
        // doubling, and each large buffer let go of makes the allocator sweep its small free
        // chunks.
        var checked = CheckedDeclarations()
        checked.reducers.reserveCapacity(reducerCount)
        checked.sagas.reserveCapacity(sagaCount)
        checked.functions.reserveCapacity(functions.count)
        if lists.count > 1 {
            checkAtOnce(&lists, runs: runs, groups: groups, into: &checked)
        } else if !lists.isEmpty {
            checkDeclarations(&lists[0], from: 0, runs: runs[...], into: &checked)
        }
        guard !hasErrors else { return nil }
        var program = Program(
            files: files, initialState: checked.initialState, reducers: checked.reducers, sagas: checked.sagas,
            functions: checked.functions)
        program.externs = externs
        return program
    }

    /// Checks `declarations`, the program's from index `first` on, whose units are `runs`,
    /// in order, adding what they declare to `checked`.
    mutating func checkDeclarations(
        _ declarations: inout [Declaration], from first: Int, runs: ArraySlice<UnitRun>,
        into checked: inout CheckedDeclarations
    ) {
        var run = runs.startIndex - 1
        var runEnd = first
        for index in declarations.indices {
            while first + index == runEnd, run + 1 < runs.endIndex {
                // A new unit: its planned callees count from its first function.
                run += 1
                runEnd = runs[run].end
                plannedCalleeOffset =
                    runs[run].calleesArePlanned ? runs[run].functionsBefore - runs[run].plannedFunctionsBase : nil
                nameMap = runs[run].nameMap
            }
            var declaration = Declaration.import("", .unknown)
            swap(&declaration, &declarations[index])
            switch declaration {
            case .import, .extern:
                continue  // the Frontend has read them already
            case .state(let expr, let location):
                checkState(expr, at: location, into: &checked)
            // Each declaration is let go of (an import in its place) before its tree is changed,
            // its parts taken out by a `guard case` (see ``checkExpr(_:)`` for why).
            case .reducer:
                guard case .reducer(var reducer) = declaration else { continue }
                declaration = .import("", reducer.location)
                checkReducer(&reducer)
                checked.reducers.append(reducer)
            case .saga:
                guard case .saga(var saga) = declaration else { continue }
                declaration = .import("", saga.location)
                checkSaga(&saga)
                checked.sagas.append(saga)
            case .function:
                guard case .function(var function) = declaration else { continue }
                declaration = .import("", function.location)
                checkFunction(&function)
                checked.functions.append(function)
            }
        }
    }

    /// The program's `state` declaration: the first is checked, each later one is an error.
    mutating func checkState(_ expr: Expr, at location: SourceLocation, into checked: inout CheckedDeclarations) {
        if let first = checked.stateLocation {
            error(
                "more than one 'state' declaration; a program has at most one", at: location,
                note: ("first 'state' declared here", first))
            return
        }
        checked.stateLocation = location
        checked.initialState = checkInitialState(expr)
    }

    /// Indexes functions and sagas by name (one namespace) before any body is checked, so a
    /// function may be called before it is declared (``DeclaredNames``), and reports each name
    /// declared twice.
    ///
    /// `heads` are the units' declarations' heads, unit by unit, in the program's order.
    ///
    /// - Returns: how many reducers and root sagas there are, to size their lists.
    ///   Each of `runs` learns how many functions come before it.
    mutating func collectNames(
        _ heads: [[DeclarationHead]], runs: inout [UnitRun]
    ) -> (reducers: Int, sagas: Int) {
        var reducers = 0
        var sagas = 0
        // Sized once: grown one at a time, the list would be copied over and over for a large
        // program.
        functions.reserveCapacity(runs.last?.end ?? 0)
        for unit in heads.indices {
            runs[unit].functionsBefore = functions.count
            for head in heads[unit] {
                switch head {
                case .reducer:
                    reducers += 1
                case .saga:
                    sagas += 1
                case .function(let name, let arity, let location):
                    functions.append(FunctionInfo(name: name, arity: arity, location: location))
                case .extern(let decl):
                    declareExtern(decl)
                case .other:
                    break
                }
            }
        }
        let (names, owners, redeclarations) = DeclaredNames.index(heads, count: sagas + functions.count)
        declaredNames = names
        for function in owners { functions[function].ownsItsName = true }
        for redeclaration in redeclarations {
            let name = redeclaration.name
            error(
                "invalid redeclaration of '\(name)'", at: redeclaration.location,
                note: ("'\(name)' previously declared here", redeclaration.previous))
        }
        for function in functions { warnIfItHidesAFunction(function) }
        for decl in externs {
            if let index = functionIndex(of: decl.name), index < functions.count {
                error(
                    "'\(decl.name)' is declared both as a function and as extern", at: decl.location,
                    note: ("'\(decl.name)' declared here", functions[index].location))
            }
        }
        return (reducers, sagas)
    }

    /// Warns of a saga function named as a built-in or a host function the frontend provides
    /// (the host library's `http.get`): both stay, each reached its own way, which a reader
    /// would not guess.
    private mutating func warnIfItHidesAFunction(_ function: FunctionInfo) {
        let name = function.name
        if Builtin(rawValue: name) != nil {
            warning(
                "function '\(name)' has the name of a built-in function: '\(name)(…)' in an expression calls "
                    + "the built-in, and 'call \(name)(…)' this function; rename it to keep them apart",
                at: function.location)
        } else if hostFunctions.contains(name), !externs.contains(where: { $0.name == name }) {
            warning(
                "function '\(name)' has the name of a host function: 'call \(name)(…)' calls this function, "
                    + "not the host's; rename it to call the host's",
                at: function.location)
        }
    }

    /// Makes an `extern func` a host function the program may call, with as many arguments
    /// as it has parameters; a second `extern` of the same name is an error.
    private mutating func declareExtern(_ decl: ExternDecl) {
        if let first = externs.first(where: { $0.name == decl.name }) {
            error(
                "invalid redeclaration of extern '\(decl.name)'", at: decl.location,
                note: ("'\(decl.name)' previously declared here", first.location))
            return
        }
        externs.append(decl)
        hostFunctions.insert(decl.name)
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
    mutating func checkReducer(_ reducer: inout ReducerDecl) {
        beginDeclaration()
        checkPattern(&reducer.pattern)
        declare(&reducer.binding, isMutable: false)
        context.inReducer = true
        checkBlock(&reducer.body)
        reducer.slotCount = nextSlot
    }

    /// A root saga.
    mutating func checkSaga(_ saga: inout SagaDecl) {
        beginDeclaration()
        checkBlock(&saga.body)
        saga.slotCount = nextSlot
    }

    /// A saga function: parameters take slots `0..<n` and may be assigned, as `var`s.
    mutating func checkFunction(_ function: inout FunctionDecl) {
        beginDeclaration()
        // Resolved in place, in the list taken out of the declaration (so that it is the only
        // reference to it), rather than copied into a new list.
        var parameters: [Variable] = []
        swap(&parameters, &function.parameters)
        for i in parameters.indices {
            // Only the first of duplicate parameters is declared, so the declaration's scope
            // finds it (a dictionary of its own per function would cost an allocation each).
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
