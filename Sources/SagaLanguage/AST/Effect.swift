import SagaCore

/// An effect: the only thing that can block a task.
///
/// It appears as a statement of its own or as the whole right-hand side of `let`, `var` or an
/// assignment (see “Statements” and “Effects” in Sagas/README.md).
package indirect enum Effect: Sendable {
    /// `take PATTERN [where COND]`, or `take CH`.
    case take(Pattern, where: Expr?, SourceLocation)
    /// `put X` or `put X Y`: which form it is (`put TYPE RECORD`, `put ACTION`, `put CH VALUE`)
    /// is decided by the kind of `X`'s value at run time.
    case put(Expr, Expr?, SourceLocation)
    /// `select [EXPR]`.
    case select(Expr?, SourceLocation)
    /// `call f(args…)`.
    case call(Callee, [Expr], SourceLocation)
    /// `fork f(args…)` or `fork { … }`.
    case fork(TaskBody, SourceLocation)
    /// `spawn f(args…)` or `spawn { … }`.
    case spawn(TaskBody, SourceLocation)
    /// `join T` (T may evaluate to a task or a list of tasks).
    case join(Expr, SourceLocation)
    /// `cancel T` or bare `cancel` (the current task).
    case cancel(Expr?, SourceLocation)
    /// `delay DURATION [VALUE]`: gives VALUE, or `true`, once DURATION has passed.
    case delay(Expr, value: Expr?, SourceLocation)
    /// `race { k1: EFFECT, … }`.
    case race([EffectEntry], SourceLocation)
    /// `all { k: EFFECT, … }`.
    case allRecord([EffectEntry], SourceLocation)
    /// `all [EFFECT, …]`.
    case allList([Effect], SourceLocation)
    /// `all for x in LIST { EFFECT }`.
    case allFor(Variable, Expr, Effect, SourceLocation)
    /// `retry N [delay D | backoff D] EFFECT`, and the loop it stands for.
    case retry(count: Expr, wait: RetryWait?, Effect, RetryLoop, SourceLocation)
    /// `channel [buffer N [KIND]]`.
    case channel(buffer: Expr?, BufferKind, SourceLocation)
    /// `actionChannel PATTERN [buffer N [KIND]]`.
    case actionChannel(Pattern, buffer: Expr?, BufferKind, SourceLocation)
    /// `close CH`: no more messages; takers of an empty closed channel end as at END.
    case close(Expr, SourceLocation)
    /// `flush CH`: every buffered message, as a list.
    case flush(Expr, SourceLocation)
    /// `every`/`latest`/`leading`/`throttle`/`debounce` used as a value (`let w = every …`);
    /// as a statement it appears as `.effect(.watcher(…))` too.
    case watcher(Watcher)

    /// Where the effect starts.
    package var location: SourceLocation {
        switch self {
        case .take(_, _, let l), .put(_, _, let l), .select(_, let l), .call(_, _, let l),
            .fork(_, let l), .spawn(_, let l), .join(_, let l), .cancel(_, let l), .delay(_, _, let l),
            .race(_, let l), .allRecord(_, let l), .allList(_, let l), .allFor(_, _, _, let l),
            .retry(_, _, _, _, let l), .channel(_, _, let l), .actionChannel(_, _, _, let l), .close(_, let l),
            .flush(_, let l):
            return l
        case .watcher(let w):
            return w.location
        }
    }
}

/// A keyed entry of `race` or `all`.
package struct EffectEntry: Sendable {
    package var key: String
    package var effect: Effect
    package init(key: String, effect: Effect) {
        self.key = key
        self.effect = effect
    }
}

/// The wait between `retry` attempts.
package enum RetryWait: Sendable {
    /// `delay D`: the same wait each time.
    case delay(Expr)
    /// `backoff D`: D, 2D, 4D, …
    case backoff(Expr)
}

/// What `call`, `fork` and `spawn` name.
///
/// The parser gives `.named`; the checker resolves it to a saga function of the program or to
/// a host function.
package enum Callee: Sendable {
    /// A name as written (`fetchUser`, `api.fetchUser`), not yet resolved.
    case named(String, SourceLocation)
    /// The program's saga function with this index in ``Program/functions``.
    case function(Int, SourceLocation)
    /// A host function registered under this name.
    case host(String, SourceLocation)
}

/// What `fork` and `spawn` run: a function with arguments, or an inline block.
package enum TaskBody: Sendable {
    case call(Callee, [Expr])
    case block(Block)
}

/// A watcher statement: `every P as a { B }` and its kin.
package struct Watcher: Sendable {
    /// Which watcher.
    package enum Kind: String, Sendable {
        case every, latest, leading, throttle, debounce
    }
    package var kind: Kind
    /// The window of `throttle` and `debounce`; `nil` for the others.
    package var duration: Expr?
    package var pattern: Pattern
    /// The variable bound to each action, in the body's scope.
    package var binding: Variable
    package var body: Block
    package var location: SourceLocation
    /// The slot of the loop's hidden variable (see ``WatcherLoop``).
    ///
    /// A slot of the enclosing declaration's numbering, which the checker sets; -1 for `every`,
    /// which has none.
    package var hiddenSlot = -1
    /// What the watcher's task runs: the loop the watcher stands for.
    ///
    /// The checker builds it (``WatcherLoop/loop(of:)``); it is empty until then.
    package var loop: Block

    package init(
        kind: Kind, duration: Expr?, pattern: Pattern, binding: Variable, body: Block,
        location: SourceLocation
    ) {
        self.loop = Block(statements: [], location: location)
        self.kind = kind
        self.duration = duration
        self.pattern = pattern
        self.binding = binding
        self.body = body
        self.location = location
    }
}

/// What a channel's buffer does with a message when it is full (`channel buffer N KIND`).
package enum BufferKind: String, Sendable, CaseIterable {
    /// The new message is dropped (the default for `buffer N`).
    case dropping
    /// The oldest message is dropped to make room.
    case sliding
    /// The `put` fails with a `RangeError`.
    case fixed
    /// The buffer grows, up to `--max-buffer` (the default with no `buffer`).
    case expanding
}
