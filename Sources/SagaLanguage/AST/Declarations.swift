import SagaCore

/// A top-level declaration as parsed from one file.
package enum Declaration: Sendable {
    case `import`(String, SourceLocation)
    case state(Expr, SourceLocation)
    case reducer(ReducerDecl)
    case saga(SagaDecl)
    case function(FunctionDecl)
    /// `extern func name(p1, p2)`: a host function the program expects to be given.
    case extern(ExternDecl)
}

/// `extern func api.fetchUser(id)`: a function the host provides (an app's registered
/// function, a golden test's mocks), declared so that the program checks on its own.
package struct ExternDecl: Sendable, Equatable {
    /// The function's name, dotted or not (`api.fetchUser`).
    package var name: String
    /// The parameters' names, for the reader and the arity.
    package var parameters: [String]
    /// Where `extern` is.
    package var location: SourceLocation
    /// A declaration of `name(parameters…)` at `location`.
    package init(name: String, parameters: [String], location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.location = location
    }
}

/// `reduce PATTERN as a { … }`.
package struct ReducerDecl: Sendable {
    package var pattern: Pattern
    package var binding: Variable
    package var body: Block
    /// How many variable slots the body needs (set by the checker).
    package var slotCount: Int
    package var location: SourceLocation
    package init(pattern: Pattern, binding: Variable, body: Block, slotCount: Int = 0, location: SourceLocation) {
        self.pattern = pattern
        self.binding = binding
        self.body = body
        self.slotCount = slotCount
        self.location = location
    }
}

/// `saga name { … }`: a root saga.
package struct SagaDecl: Sendable {
    package var name: String
    package var body: Block
    /// How many variable slots the body (and every block forked from it) needs.
    package var slotCount: Int
    package var location: SourceLocation
    package init(name: String, body: Block, slotCount: Int = 0, location: SourceLocation) {
        self.name = name
        self.body = body
        self.slotCount = slotCount
        self.location = location
    }
}

/// `func name(p1, p2) { … }`: a saga function.
///
/// Parameters take slots 0..<params.count.
package struct FunctionDecl: Sendable {
    package var name: String
    package var parameters: [Variable]
    package var body: Block
    package var slotCount: Int
    package var location: SourceLocation
    package init(name: String, parameters: [Variable], body: Block, slotCount: Int = 0, location: SourceLocation) {
        self.name = name
        self.parameters = parameters
        self.body = body
        self.slotCount = slotCount
        self.location = location
    }
}

/// The parse of one source file.
package struct SourceUnit: Sendable {
    package var file: Int32
    package var declarations: [Declaration] {
        // Whatever changes the declarations makes the parser's notes of their heads stale, and
        // the check of their bodies.
        didSet {
            heads = nil
            bodyCheck = nil
        }
    }
    /// The head of each declaration, in order, as the parser noted it; `nil` when the
    /// declarations did not come straight from the parser (``DeclarationHead``).
    var heads: [DeclarationHead]?
    /// Whether a ``Callee/function(_:_:)`` in this unit is the parser's plan rather than a
    /// resolution: the index of a function among this file's own function declarations,
    /// which the checker turns back into that function's name and resolves as such. (Only the
    /// Frontend's parse plans callees; see `Parser+Slots.swift`.)
    var calleesArePlanned = false
    /// Where the parser started counting this unit's functions for its planned callees: how
    /// many function declarations it took to come before the unit's first.
    ///
    /// The checker, which knows how many do, keeps a planned callee as it is when the two
    /// agree (a piece of a large file, Parser+Pieces.swift), and otherwise rebuilds it with
    /// the right index.
    var plannedFunctionsBase = 0
    /// By the number the parser gave a name in this unit, the number the program's interner
    /// gives it; empty when they are the same.
    ///
    /// A piece of a file parsed on a thread of its own numbers its names apart
    /// (Parser+Pieces.swift).
    var nameMap: [Int32] = []
    /// When the unit's reducers, sagas and functions were checked as they were parsed and
    /// then let go of (`CheckingSink`), what their check reported; ``declarations`` then
    /// holds only the unit's imports and `state` declarations.
    var bodyCheck: Checker.UnitCheck?
    package init(file: Int32, declarations: [Declaration]) {
        self.file = file
        self.declarations = declarations
    }
}

/// A whole checked program: every file's declarations merged, names resolved to slots and
/// indices, ready to run.
public struct Program: Sendable {
    /// Every file read (the root first, then imports), for diagnostics and stack traces.
    public var files: [SourceFile]
    /// The initial state expression (a record literal), if any.
    package var initialState: Expr?
    package var reducers: [ReducerDecl]
    /// Root sagas in declaration order.
    package var sagas: [SagaDecl]
    /// Saga functions; ``Callee/function(_:_:)`` indexes this array.
    package var functions: [FunctionDecl]
    /// The host functions the program declares with `extern func`, in declaration order.
    package var externs: [ExternDecl] = []
    /// The host functions the program calls, forks or spawns, by name, sorted.
    package var hostCallees: [String] = []

    package init(
        files: [SourceFile], initialState: Expr?, reducers: [ReducerDecl], sagas: [SagaDecl],
        functions: [FunctionDecl]
    ) {
        self.files = files
        self.initialState = initialState
        self.reducers = reducers
        self.sagas = sagas
        self.functions = functions
    }
}
