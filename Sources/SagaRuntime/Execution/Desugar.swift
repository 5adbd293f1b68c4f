import SagaCore
import SagaLanguage

/// Builds the plain statements that `retry` and the entries of `race`/`all` stand for, so
/// that one engine runs them all (a watcher's loop is built by the checker: ``WatcherLoop``).
///
/// Hidden variables take slots past the end of the copied frame.
enum Desugar {
    /// A body that performs `effect` and returns its value.
    static func effectTask(_ effect: Effect, env: [Value], at loc: SourceLocation) -> (Block, [Value]) {
        let result = Variable(name: "result", slot: env.count, location: loc)
        let body = Block(
            statements: [
                .declare(result, isMutable: false, .effect(effect), loc),
                .return(.variable(result), loc),
            ], location: loc)
        return (body, env + [.null])
    }

    /// `retry N [delay D | backoff D] EFFECT`, as the loop below.
    ///
    ///     var attempt = 0; var wait = D
    ///     loop { try { return EFFECT } catch e { attempt += 1; if attempt >= N { throw e }; delay wait; wait = wait * 2 } }
    static func retry(
        count: Int, wait: RetryWait?, effect: Effect, env: [Value], at loc: SourceLocation
    ) -> (Block, [Value]) {
        let base = env.count
        let attempt = Variable(name: "attempt", slot: base, location: loc)
        let pause = Variable(name: "wait", slot: base + 1, location: loc)
        let result = Variable(name: "result", slot: base + 2, location: loc)
        let error = Variable(name: "error", slot: base + 3, location: loc)
        var statements: [Stmt] = []
        switch wait {
        case .delay(let d)?, .backoff(let d)?:
            statements.append(.assign(LValue(root: .variable(pause), path: []), .expr(d), loc))
        case nil:
            break
        }
        var onError: [Stmt] = [
            .assign(
                LValue(root: .variable(attempt), path: []),
                .expr(.binary(.add, .variable(attempt), .literal(.int(1), loc), loc)), loc),
            .if(
                [
                    ConditionalBlock(
                        condition: .binary(.greaterEqual, .variable(attempt), .literal(.int(count), loc), loc),
                        body: Block(statements: [.throw(.variable(error), loc)], location: loc))
                ], else: nil, loc),
        ]
        if wait != nil {
            onError.append(.effect(.delay(.variable(pause), value: nil, loc), loc))
        }
        if case .backoff? = wait {
            onError.append(
                .assign(
                    LValue(root: .variable(pause), path: []),
                    .expr(.binary(.multiply, .variable(pause), .literal(.int(2), loc), loc)), loc))
        }
        let attemptBody = Block(
            statements: [
                .declare(result, isMutable: false, .effect(effect), loc),
                .return(.variable(result), loc),
            ], location: loc)
        statements.append(
            .loop(
                Block(
                    statements: [
                        .try(
                            attemptBody,
                            catch: CatchClause(binding: error, body: Block(statements: onError, location: loc)),
                            finally: nil, loc)
                    ], location: loc), loc))
        return (Block(statements: statements, location: loc), env + [.int(0), .null, .null, .null])
    }
}
