import SagaCore

/// A statement.
///
/// Every case is boxed (`indirect`), so a `Stmt` is one word, as `Expr` is (see there: the
/// interpreter copies statements as it steps through them, and pays more for a bigger enum
/// than the parser saves).
public indirect enum Stmt: Sendable {
    /// `let x = …` (`isMutable` false) or `var x = …` (true).
    case declare(Variable, isMutable: Bool, Rhs, SourceLocation)
    /// `target = …`.
    case assign(LValue, Rhs, SourceLocation)
    /// An effect as a statement of its own (watchers included).
    case effect(Effect, SourceLocation)
    /// `log EXPR`.
    case log(Expr, SourceLocation)
    /// `throw EXPR`.
    case `throw`(Expr, SourceLocation)
    /// `if c1 { } else if c2 { } else { }`.
    case `if`([ConditionalBlock], else: Block?, SourceLocation)
    /// `while COND { }`.
    case `while`(Expr, Block, SourceLocation)
    /// `loop { }`.
    case loop(Block, SourceLocation)
    /// `for x in LIST_OR_RECORD { }` (a record iterates its keys, sorted).
    case `for`(Variable, Expr, Block, SourceLocation)
    case `break`(SourceLocation)
    case `continue`(SourceLocation)
    /// `return [EXPR]`.
    case `return`(Expr?, SourceLocation)
    /// `try { } catch e { } finally { }` (catch and finally each optional, not both absent).
    case `try`(Block, catch: CatchClause?, finally: Block?, SourceLocation)
    /// `transaction { }`.
    case transaction(Block, SourceLocation)
    /// `compensate { }`.
    case compensate(Block, SourceLocation)

    /// Where the statement starts.
    public var location: SourceLocation {
        switch self {
        case .declare(_, _, _, let l), .assign(_, _, let l), .effect(_, let l), .log(_, let l),
            .throw(_, let l), .if(_, _, let l), .while(_, _, let l), .loop(_, let l),
            .for(_, _, _, let l), .break(let l), .continue(let l), .return(_, let l),
            .try(_, _, _, let l), .transaction(_, let l), .compensate(_, let l):
            return l
        }
    }
}

/// The right-hand side of `let`, `var` and assignment: an expression or an effect.
public enum Rhs: Sendable {
    case expr(Expr)
    case effect(Effect)
}

/// The target of an assignment: a variable or `state` (in reducers), then a path of
/// `.name` and `[expr]` steps.
public struct LValue: Sendable {
    public enum Root: Sendable {
        case variable(Variable)
        case state(SourceLocation)
    }
    public enum Step: Sendable {
        case member(String)
        case index(Expr)
    }
    public var root: Root
    public var path: [Step]
    public init(root: Root, path: [Step]) {
        self.root = root
        self.path = path
    }
}

/// One `if`/`else if` arm.
public struct ConditionalBlock: Sendable {
    public var condition: Expr
    public var body: Block
    public init(condition: Expr, body: Block) {
        self.condition = condition
        self.body = body
    }
}

/// `catch e { … }`.
public struct CatchClause: Sendable {
    public var binding: Variable
    public var body: Block
    public init(binding: Variable, body: Block) {
        self.binding = binding
        self.body = body
    }
}

/// A `{ … }` block of statements.
public struct Block: Sendable {
    public var statements: [Stmt]
    /// Where the opening brace is.
    public var location: SourceLocation
    public init(statements: [Stmt], location: SourceLocation) {
        self.statements = statements
        self.location = location
    }
}
