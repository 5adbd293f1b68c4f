// A program checked declaration by declaration as it is parsed (`Frontend.check(path:)`):
// what waits for the whole program's names, and how the check is finished once they are known.

import SagaCore

extension Checker {
    /// A look-up of the program's declared names that waited until every name was known.
    ///
    /// Only three things in a body's check read what the program declares: which function a
    /// `call`, `fork` or `spawn` names (``resolveCallee(_:argumentCount:)``), the message for a
    /// built-in's name that is not one (``checkBuiltin(_:argumentCount:at:inReducer:inSelect:)``), and
    /// the message for a variable no declaration names (``reportUnknown(_:hint:)``).
    struct DeferredLookup: Sendable {
        enum Kind: Sendable {
            case callee(Callee, argumentCount: Int)
            case builtin(String, argumentCount: Int, SourceLocation, inReducer: Bool, inSelect: Bool)
            /// A variable no visible declaration names, with the hint made where it was read.
            case variable(Variable, hint: String)
        }

        var kind: Kind
        /// How many diagnostics the check had reported when it met the look-up: where the
        /// look-up's own go among them, so that they come in the order a whole check gives.
        var position: Int

        init(_ kind: Kind, at position: Int) {
            self.kind = kind
            self.position = position
        }
    }

    /// What checking a unit's declarations as they were parsed gave (``SourceUnit/bodyCheck``).
    struct UnitCheck: Sendable {
        /// Everything the bodies' checks reported, but for the look-ups' messages.
        var diagnostics: [Diagnostic] = []
        /// The look-ups that waited, in the order met.
        var lookups: [DeferredLookup] = []
    }

    /// Checks `declaration` (a reducer, a saga or a function) on its own, for
    /// `CheckingSink`: its look-ups of the program's names wait in ``deferredLookups``.
    mutating func checkBody(of declaration: consuming Declaration) {
        switch declaration {
        case .reducer(var reducer):
            checkReducer(&reducer)
        case .saga(var saga):
            checkSaga(&saga)
        case .function(var function):
            checkFunction(&function)
        case .import, .state, .extern:
            break  // checked with the whole program (``finishChecking(units:)``)
        }
    }

    /// Finishes the check of `units`, whose bodies were checked as they were parsed
    /// (``SourceUnit/bodyCheck``): ``diagnostics`` gets what ``check(units:files:)`` reports
    /// for the same units, in the same order, and no program is made.
    ///
    /// As there: the declared names first, then the `state` declarations, then each unit's
    /// bodies, their look-ups made now with every name known. A unit without a body check
    /// (its declarations changed, or parsed into a ``DeclarationList``) is checked whole here.
    mutating func finishChecking(units: consuming [SourceUnit]) {
        var runs: [UnitRun] = []
        runs.reserveCapacity(units.count)
        var heads: [[DeclarationHead]] = []
        heads.reserveCapacity(units.count)
        var count = 0
        for index in units.indices {
            let unitHeads = units[index].heads ?? units[index].declarations.map(DeclarationHead.init)
            runs.append(
                UnitRun(
                    start: count, end: count + unitHeads.count, calleesArePlanned: units[index].calleesArePlanned,
                    nameMap: [], plannedFunctionsBase: units[index].plannedFunctionsBase))
            count += unitHeads.count
            heads.append(unitHeads)
        }
        _ = collectNames(heads, runs: &runs)
        var checked = CheckedDeclarations()
        for index in units.indices {
            for case .state(let expr, let location) in units[index].declarations {
                checkState(expr, at: location, into: &checked)
            }
        }
        for index in units.indices {
            let run = runs[index]
            plannedCalleeOffset = run.calleesArePlanned ? run.functionsBefore - run.plannedFunctionsBase : nil
            guard let check = units[index].bodyCheck else {
                checkWhole(&units[index])
                continue
            }
            var reported = 0
            for lookup in check.lookups {
                let position = min(max(lookup.position, reported), check.diagnostics.count)
                diagnostics += check.diagnostics[reported..<position]
                reported = position
                switch lookup.kind {
                case .callee(let callee, let argumentCount):
                    _ = resolveCallee(callee, argumentCount: argumentCount)
                case .builtin(let name, let argumentCount, let location, let inReducer, let inSelect):
                    checkBuiltin(
                        name, argumentCount: argumentCount, at: location, inReducer: inReducer, inSelect: inSelect)
                case .variable(let variable, let hint):
                    reportUnknown(variable, hint: hint)
                }
            }
            diagnostics += check.diagnostics[reported...]
        }
    }

    /// Checks the reducers, sagas and functions of a unit whose bodies were not checked as
    /// they were parsed, with the look-ups made at once.
    private mutating func checkWhole(_ unit: inout SourceUnit) {
        let saved = (deferredLookups, nameMap)
        deferredLookups = nil
        nameMap = []  // every variable's number is checked against its name (``nameID(of:)``)
        defer { (deferredLookups, nameMap) = saved }
        var declarations: [Declaration] = []
        swap(&declarations, &unit.declarations)
        for declaration in declarations { checkBody(of: declaration) }
    }
}
