import SagaCore
import SagaLanguage

/// Builds the plain statements that watchers, `retry` and the entries of `race`/`all` stand
/// for (the table in “Watchers” in Sagas/README.md spells out the watchers' loops), so that
/// one engine runs them all.
///
/// Hidden variables take slots past the end of the copied frame.
enum Desugar {
    /// The buffer marker of throttle's sliding channel of one (keeps the newest action).
    static let slidingMarker = "\u{0}sliding"

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

    /// The index of `join t` in a `leading` watcher's loop: `take` is at 0, the `fork` at 1.
    ///
    /// A task blocked on the `take` stands at the next index (1), one about to join at 2, one
    /// blocked on the join at 3 (see ``Interpreter/runShortTurn(_:_:_:)``).
    static let leadingJoin = 2

    /// The `take` of an `every`, `latest`, `leading` or `debounce` watcher's loop.
    static func watcherTake(_ w: Watcher) -> Effect {
        .take(w.pattern, where: nil, w.location)
    }

    /// The `fork` of a watcher's body in its loop.
    static func watcherFork(_ w: Watcher) -> Effect {
        .fork(.block(w.body), w.location)
    }

    /// The `join` of a `leading` watcher's loop, of its hidden `task` variable in `hiddenSlot`.
    static func leadingJoinEffect(_ w: Watcher, hiddenSlot: Int) -> Effect {
        .join(.variable(Variable(name: "task", slot: hiddenSlot, location: w.location)), w.location)
    }

    /// A watcher as the loop the table in “Watchers” in Sagas/README.md gives for it.
    static func watcher(_ w: Watcher, env: [Value]) -> (Block, [Value]) {
        let loc = w.location
        let base = env.count
        let takeAction = Stmt.declare(w.binding, isMutable: true, .effect(watcherTake(w)), loc)
        let forkBody = Stmt.effect(watcherFork(w), loc)
        func loop(_ statements: [Stmt]) -> Stmt {
            .loop(Block(statements: statements, location: loc), loc)
        }
        switch w.kind {
        case .every:
            return (Block(statements: [loop([takeAction, forkBody])], location: loc), env)
        case .latest:
            // var last = null; loop { let a = take P; if last != null { cancel last }; last = fork { B } }
            let last = Variable(name: "last", slot: base, location: loc)
            let cancelLast = Stmt.if(
                [
                    ConditionalBlock(
                        condition: .binary(.notEqual, .variable(last), .literal(.null, loc), loc),
                        body: Block(statements: [.effect(.cancel(.variable(last), loc), loc)], location: loc))
                ], else: nil, loc)
            let forkLast = Stmt.assign(LValue(root: .variable(last), path: []), .effect(watcherFork(w)), loc)
            return (Block(statements: [loop([takeAction, cancelLast, forkLast])], location: loc), env + [.null])
        case .leading:
            // loop { let a = take P; call B } — as fork and join, which waits the same way.
            // The statements' places in the loop are ``leadingJoin``'s (short turns rely on them).
            let t = Variable(name: "task", slot: base, location: loc)
            let forkT = Stmt.declare(t, isMutable: false, .effect(watcherFork(w)), loc)
            let joinT = Stmt.effect(leadingJoinEffect(w, hiddenSlot: base), loc)
            return (Block(statements: [loop([takeAction, forkT, joinT])], location: loc), env + [.null])
        case .throttle:
            // let ch = actionChannel P (sliding buffer of one); loop { let a = take ch; fork { B }; delay D }
            let ch = Variable(name: "channel", slot: base, location: loc)
            let makeChannel = Stmt.declare(
                ch, isMutable: false,
                .effect(.actionChannel(w.pattern, buffer: .literal(.string(slidingMarker), loc), .sliding, loc)),
                loc)
            let takeCh = Stmt.declare(
                w.binding, isMutable: true, .effect(.take(.expr(.variable(ch)), where: nil, loc)), loc)
            let pause = Stmt.effect(.delay(w.duration ?? .literal(.int(0), loc), value: nil, loc), loc)
            return (Block(statements: [makeChannel, loop([takeCh, forkBody, pause])], location: loc), env + [.null])
        case .debounce:
            // loop { var a = take P; loop { let r = race { t: delay D, n: take P };
            //        if has(r, "t") { fork { B }; break }; a = r.n } }
            let r = Variable(name: "race", slot: base, location: loc)
            let race = Stmt.declare(
                r, isMutable: false,
                .effect(
                    .race(
                        [
                            EffectEntry(
                                key: "t", effect: .delay(w.duration ?? .literal(.int(0), loc), value: nil, loc)),
                            EffectEntry(key: "n", effect: .take(w.pattern, where: nil, loc)),
                        ], loc)), loc)
            let fired = Stmt.if(
                [
                    ConditionalBlock(
                        condition: .builtin("has", [.variable(r), .literal(.string("t"), loc)], loc),
                        body: Block(statements: [forkBody, .break(loc)], location: loc))
                ], else: nil, loc)
            let again = Stmt.assign(
                LValue(root: .variable(w.binding), path: []), .expr(.member(.variable(r), "n", loc)), loc)
            let inner = loop([race, fired, again])
            return (Block(statements: [loop([takeAction, inner])], location: loc), env + [.null])
        }
    }
}
