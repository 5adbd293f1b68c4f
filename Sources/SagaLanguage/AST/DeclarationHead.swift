import SagaCore

/// What the checker reads of a declaration before it checks any body: its kind, and the
/// name, arity and place of a saga or a function.
///
/// The parser notes each declaration's head as it makes it (``SourceUnit/heads``), while
/// the declaration is in the cache: read back from the tree at check time, after a large
/// file's pieces were parsed on other threads, each head would cost a cache miss or two (the
/// declaration's body and parameters retained to be read) on the one thread that indexes the
/// program's names.
enum DeclarationHead: Sendable, Equatable {
    case reducer
    case saga(String, SourceLocation)
    case function(String, arity: Int, SourceLocation)
    /// `extern func`: a host function's name, arity and place, read before any body is checked.
    case extern(ExternDecl)
    /// An `import` or a `state`: nothing to index.
    case other

    /// The head of `declaration`, read where it lies: switching over the declaration itself
    /// would copy each one whole, retaining its body and parameters, to read its name.
    init(of declaration: Declaration) {
        switch declaration {
        case .reducer: self = .reducer
        case .saga(let saga): self = .saga(saga.name, saga.location)
        case .function(let function):
            self = .function(function.name, arity: function.parameters.count, function.location)
        case .extern(let decl): self = .extern(decl)
        case .import, .state: self = .other
        }
    }
}
