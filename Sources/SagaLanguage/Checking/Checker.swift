import SagaCore

/// Resolves every name of a parsed program and reports every error the language's rules
/// forbid, without stopping at the first.
///
/// Resolution is what the interpreter relies on:
/// - Slots are numbered per top-level declaration (saga, func, reducer) from 0 and never
///   reused within it: a function's parameters take `0..<n`, a reducer's binding takes 0, and
///   every `let`/`var`, `for x`, `catch e`, watcher binding and `all for x` takes the next
///   fresh slot, in the order the checker meets them (a declaration's right-hand side is
///   checked before its variable gets a slot). Blocks of `fork`, `spawn`, watchers and
///   `compensate` share the enclosing declaration's numbering, since they run with a copy of
///   its frame.
/// - A ``Callee/named(_:_:)`` becomes ``Callee/function(_:_:)`` for a function of the
///   program, ``Callee/host(_:_:)`` for a host function name.
///
/// Mutability: `var` and function parameters may be assigned; `let` and every binding
/// (`as a`, `catch e`, `for x`, `all for x`) may not. Redeclaring a name in the same block is
/// an error; shadowing it in an inner block is not.
struct Checker {
    /// A saga function as the rest of the program sees it.
    struct FunctionInfo {
        var name: String
        var arity: Int
        var location: SourceLocation
        /// Whether the function's name resolves to it: it is the first function declared
        /// under that name (a later one is a redeclaration, reported as such).
        var ownsItsName = false
    }

    /// Names a `call`, `fork` or `spawn` may name besides the program's own functions: the
    /// frontend's, and those the program declares `extern` (added as its names are indexed).
    var hostFunctions: Set<String>
    /// The host functions the program calls, forks or spawns, by name.
    var hostCallees: Set<String> = []
    /// The program's `extern func` declarations, in order: their arity is checked at each call.
    var externs: [ExternDecl] = []
    /// What the program declares under each name (a function, a saga, or both, which is an
    /// error): one look-up per declaration instead of one per table of functions, sagas and
    /// names seen.
    var declaredNames = DeclaredNames()
    /// The program's functions, indexed as in ``Program/functions``.
    var functions: [FunctionInfo] = []
    /// When the unit being checked has its callees planned (``SourceUnit/calleesArePlanned``),
    /// what makes a planned index an index in ``functions``: the index of the unit's first
    /// function less the ``SourceUnit/plannedFunctionsBase`` the parser counted from (0 when
    /// the parser counted right, and the planned callees stay as they are).
    var plannedCalleeOffset: Int?
    /// The ``SourceUnit/nameMap`` of the unit being checked.
    var nameMap: [Int32] = []
    /// How many threads may check the declarations at once (Checker+AtOnce.swift); 1, the
    /// default, checks them on the caller's.
    var parallelism = 1
    /// Everything reported so far; a note follows the diagnostic it belongs to.
    var diagnostics: [Diagnostic] = []
    /// When not `nil`, the look-ups of the program's declared names wait here, in the order
    /// met, to be made once every name is known (Checker+Deferred.swift): a declaration is
    /// then checked as soon as it is parsed, before the declarations after it are.
    var deferredLookups: [DeferredLookup]?

    /// The scopes of the declaration being checked, innermost last.
    let scopes = ScopeStack()
    /// The numbers of variable names: the parser's, which the Frontend hands over, and more
    /// for a variable that came without one (an AST built by hand).
    var names = NameInterner()
    /// The next fresh slot of the declaration being checked.
    var nextSlot = 0
    /// The highest slot read, written or declared since the innermost `fork` or `spawn` block
    /// began, or -1: what sets that block's ``Block/frameSize``.
    var highestSlotInTask = -1
    /// The slots read, written or declared since the innermost `fork` or `spawn` block, or
    /// watcher's body, began; `nil` outside one: what sets that block's
    /// ``Block/capturedSlots``.
    var slotsUsedInTask: Set<Int32>?
    /// What the constructs around the node being checked allow.
    var context = CheckContext()

    /// Creates a checker that accepts `hostFunctions` as callees.
    init(hostFunctions: Set<String>) {
        self.hostFunctions = hostFunctions
    }

    /// The index in ``Program/functions`` of the first function named `name`, if any.
    func functionIndex(of name: String) -> Int? {
        guard let function = declaredNames.entry(named: name)?.function else { return nil }
        return function >= 0 ? function : nil
    }

    /// Whether a root saga is named `name` (for a helpful message when one is called).
    func isSagaName(_ name: String) -> Bool {
        declaredNames.entry(named: name)?.isSaga ?? false
    }

    /// Whether an error (not a warning or note) has been reported.
    var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }

    // MARK: Reporting

    /// Reports an error, with an optional note that follows it.
    mutating func error(_ message: String, at location: SourceLocation, note: (String, SourceLocation)? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: location))
        if let (text, place) = note {
            diagnostics.append(Diagnostic(.note, text, at: place))
        }
    }

    /// Reports a warning: it never stops a program from running.
    mutating func warning(_ message: String, at location: SourceLocation) {
        diagnostics.append(Diagnostic(.warning, message, at: location))
    }

    // MARK: Declaration frames and scopes

    /// Starts a new top-level declaration: fresh slots, no scopes, a clean context.
    mutating func beginDeclaration() {
        scopes.reset()
        nextSlot = 0
        highestSlotInTask = -1
        slotsUsedInTask = nil
        context = CheckContext()
    }

    /// Opens a block scope.
    @inline(__always)
    mutating func pushScope() {
        scopes.push()
    }

    /// Closes the innermost block scope (never the declaration's own), warning about each of
    /// its variables that was never used.
    ///
    /// Inlined where every variable was used, the warnings out of line: a call of its own and
    /// an empty list made and let go of at the end of every block would cost more than the
    /// look.
    @inline(__always)
    mutating func popScope() {
        guard scopes.depth > 1 else { return }
        guard scopes.innermostHasUnused else {
            scopes.pop()
            return
        }
        popScopeWarningUnused()
    }

    /// Closes the innermost block scope, warning about each of its variables never used.
    @inline(never)
    private mutating func popScopeWarningUnused() {
        for entry in scopes.popUnused() {
            let name = names.name(entry.nameID)
            warning("variable '\(name)' was never used; remove it, or name it '_\(name)'", at: entry.location)
        }
    }

    /// Declares `variable` in the innermost scope with a fresh slot, which it is given.
    ///
    /// A name already declared in the same scope is reported; the new declaration still gets
    /// its own slot so that later uses resolve somewhere. (Resolved in place, not returned as a
    /// resolved copy: each copy of a variable retains its name.)
    mutating func declare(
        _ variable: inout Variable, isMutable: Bool, warnsIfUnused: Bool = false, holdsChannel: Bool = false
    ) {
        variable.slot = nextSlot
        nextSlot += 1
        noteSlot(variable.slot)
        guard scopes.depth > 0 else { return }
        let id = nameID(of: variable)
        if let previous = scopes.declaredInInnermostScope(id) {
            error(
                "invalid redeclaration of '\(variable.name)'", at: variable.location,
                note: ("'\(variable.name)' previously declared here", previous.location))
        }
        scopes.declare(
            ScopeStack.Entry(
                nameID: id, slot: variable.slot, isMutable: isMutable,
                taskDepth: context.taskDepth, location: variable.location, warnsIfUnused: warnsIfUnused,
                holdsChannel: holdsChannel))
    }

    /// The innermost visible declaration of `variable`'s name, marked as used.
    mutating func use(_ variable: Variable) -> ScopeStack.Entry? {
        guard let index = scopes.lookup(nameID(of: variable)) else { return nil }
        scopes.markUsed(index)
        let entry = scopes.entry(at: index)
        noteSlot(entry.slot)
        return entry
    }

    /// Counts `slot` as one the innermost task body uses (see ``highestSlotInTask``).
    @inline(__always)
    mutating func noteSlot(_ slot: Int) {
        if slot > highestSlotInTask { highestSlotInTask = slot }
        slotsUsedInTask?.insert(Int32(clamping: slot))
    }

    /// Checks a task body's block with `check`, and returns the slots below `firstLocal` (those
    /// of the frame around it) that the block uses (see ``Block/capturedSlots``), which the
    /// enclosing task body uses too.
    mutating func capturedSlots(below firstLocal: Int, _ check: (inout Self) -> Void) -> [Int32] {
        let outer = slotsUsedInTask
        slotsUsedInTask = []
        check(&self)
        let captured = (slotsUsedInTask ?? []).filter { $0 < firstLocal }.sorted()
        slotsUsedInTask = outer
        slotsUsedInTask?.formUnion(captured)
        return captured
    }

    /// The number of `variable`'s name: the parser's, while it still numbers that name, or
    /// one from ``names``.
    @inline(__always)
    mutating func nameID(of variable: Variable) -> Int32 {
        var id = variable.nameID
        if !nameMap.isEmpty { id = id >= 0 && Int(id) < nameMap.count ? nameMap[Int(id)] : -1 }
        if id >= 0, Int(id) < names.count, names.name(id) == variable.name { return id }
        return names.intern(variable.name)
    }

    /// Every variable name visible here, for suggestions.
    var namesInScope: Set<String> { Set(scopes.visibleNameIDs.map { names.name($0) }) }

    /// Enters the body of a `fork`/`spawn` block, a watcher or a `compensate` block: a task
    /// body of its own that runs with a copy of the frame, so loops and transactions outside it
    /// are out of reach.
    mutating func enterTaskBody(_ boundary: CheckContext.Boundary) {
        context.loopBehindBoundary = context.inLoop || context.loopBehindBoundary
        context.transactionBehindBoundary = context.inTransaction || context.transactionBehindBoundary
        context.inLoop = false
        context.inTransaction = false
        context.taskDepth += 1
        context.boundary = boundary
    }
}
