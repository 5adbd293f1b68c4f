import SagaCore

/// A statement.
///
/// Every case is boxed (`indirect`), so a `Stmt` is one word, as `Expr` is (see there: the
/// interpreter copies statements as it steps through them, and pays more for a bigger enum
/// than the parser saves).
package indirect enum Stmt: Sendable {
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
    package var location: SourceLocation {
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
package enum Rhs: Sendable {
    case expr(Expr)
    case effect(Effect)
}

/// The target of an assignment: a variable or `state` (in reducers), then a path of
/// `.name` and `[expr]` steps.
package struct LValue: Sendable {
    package enum Root: Sendable {
        case variable(Variable)
        case state(SourceLocation)
    }
    package enum Step: Sendable {
        case member(String)
        case index(Expr)
    }
    package var root: Root
    package var path: [Step]
    package init(root: Root, path: [Step]) {
        self.root = root
        self.path = path
    }
}

/// One `if`/`else if` arm.
package struct ConditionalBlock: Sendable {
    package var condition: Expr
    package var body: Block
    package init(condition: Expr, body: Block) {
        self.condition = condition
        self.body = body
    }
}

/// `catch e { … }`.
package struct CatchClause: Sendable {
    package var binding: Variable
    package var body: Block
    package init(binding: Variable, body: Block) {
        self.binding = binding
        self.body = body
    }
}

/// A `{ … }` block of statements.
package struct Block: Sendable {
    package var statements: [Stmt]
    /// Where the opening brace is.
    package var location: SourceLocation
    /// How many of the frame's first slots the task of a `fork` or `spawn` block needs.
    ///
    /// It is one past the highest slot the block reads, writes or declares, nested blocks and
    /// tasks included. The checker sets it; -1, for any other block, means the whole frame.
    ///
    /// The forked task then holds a copy of those slots only, so a blocked task that uses few
    /// variables of a large frame, or none, keeps few or none of them alive.
    package var frameSize: Int32 = -1
    /// The slots of the frame around a `fork` or `spawn` block, or a watcher's body, that it
    /// reads or writes, nested blocks and tasks included, in order; `nil` for any other block,
    /// or where the checker has not set them: all of them.
    ///
    /// The block's task copies these into its frame; the others start null there, since no
    /// name in the block reaches them.
    package var capturedSlots: [Int32]?
    package init(statements: [Stmt], location: SourceLocation) {
        self.statements = statements
        self.location = location
    }
}
