/// Checks each reducer, saga and function as soon as the parser hands it over, then lets its
/// tree go: a compile for the diagnostics alone (`Frontend.check(path:)`).
///
/// Kept whole, a large file's tree is millions of boxes, every page of it new to the process
/// (the kernel's page faults then take much of the check's time) and torn down at exit. Let go of declaration by declaration, the memory of one is reused for the next while
/// it is still in the cache.
///
/// What a body's check needs of declarations not parsed yet, which function a `call` names,
/// waits in the unit's ``Checker/UnitCheck`` (``Checker/DeferredLookup``), and
/// ``Checker/finishChecking(units:)`` makes those look-ups once every piece is parsed. The
/// imports and `state` declarations are kept: the loader follows the first, and the check of
/// the second depends on the ones before.
struct CheckingSink: DeclarationSink {
    private var checker = Checker(hostFunctions: [])
    private var kept: [Declaration] = []
    private var heads: [DeclarationHead] = []

    init() {
        checker.deferredLookups = []
    }

    /// The bodies are checked with the piece's own numbers; what is checked later (a `state`
    /// declaration, the look-ups) reads names, not numbers.
    static var needsProgramNames: Bool { false }

    mutating func take(_ declaration: consuming Declaration, head: DeclarationHead, names: inout NameInterner) {
        heads.append(head)
        switch declaration {
        case .import, .state, .extern:
            kept.append(declaration)
        case .reducer, .saga, .function:
            // The parser's own numbers for the names, lent for the check (the variables carry
            // them), so that no name is looked up by its text.
            swap(&checker.names, &names)
            checker.checkBody(of: declaration)
            swap(&checker.names, &names)
        }
    }

    consuming func unit(file: Int32) -> SourceUnit {
        var unit = SourceUnit(file: file, declarations: kept)
        unit.heads = heads
        unit.bodyCheck = Checker.UnitCheck(diagnostics: checker.diagnostics, lookups: checker.deferredLookups ?? [])
        return unit
    }
}
