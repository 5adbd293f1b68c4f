/// The loops that watchers stand for (the table in “Watchers” in Sagas/README.md), built by
/// the checker once a watcher's slots are known: ``Watcher/loop``.
///
/// A watcher runs as a task of its own whose body is its loop. The loop's hidden variable
/// (``Watcher/hiddenSlot``: the last task of `latest`, the joined task of `leading`, the
/// channel of `throttle`, the race of `debounce`) has a slot of the enclosing declaration's
/// numbering, as every variable of a task body does.
package enum WatcherLoop {
    /// The buffer marker of throttle's sliding channel of one (keeps the newest action).
    package static let slidingMarker = "\u{0}sliding"

    /// Whether a watcher of this kind has a hidden variable (see ``Watcher/hiddenSlot``).
    package static func hasHiddenVariable(_ kind: Watcher.Kind) -> Bool {
        kind != .every
    }

    /// The `take` of an `every`, `latest`, `leading` or `debounce` watcher's loop.
    package static func take(_ w: Watcher) -> Effect {
        .take(w.pattern, where: nil, w.location)
    }

    /// The `fork` of a watcher's body in its loop.
    package static func fork(_ w: Watcher) -> Effect {
        .fork(.block(w.body), w.location)
    }

    /// The `join` of a `leading` watcher's loop, of its hidden `task` variable.
    package static func leadingJoinEffect(_ w: Watcher) -> Effect {
        .join(.variable(hidden(w, "task")), w.location)
    }

    private static func hidden(_ w: Watcher, _ name: String) -> Variable {
        Variable(name: name, slot: w.hiddenSlot, location: w.location)
    }

    /// The watcher's loop, from its kind, pattern, binding, body and hidden slot.
    package static func loop(of w: Watcher) -> Block {
        let loc = w.location
        let takeAction = Stmt.declare(w.binding, isMutable: true, .effect(take(w)), loc)
        let forkBody = Stmt.effect(fork(w), loc)
        func loop(_ statements: [Stmt]) -> Stmt {
            .loop(Block(statements: statements, location: loc), loc)
        }
        func block(_ statements: [Stmt]) -> Block {
            Block(statements: statements, location: loc)
        }
        switch w.kind {
        case .every:
            // loop { let a = take P; fork { B } }
            return block([loop([takeAction, forkBody])])
        case .latest:
            // var last = null; loop { let a = take P; if last != null { cancel last }; last = fork { B } }
            // (the hidden variable is null when the task starts).
            let last = hidden(w, "last")
            let cancelLast = Stmt.if(
                [
                    ConditionalBlock(
                        condition: .binary(.notEqual, .variable(last), .literal(.null, loc), loc),
                        body: block([.effect(.cancel(.variable(last), loc), loc)]))
                ], else: nil, loc)
            let forkLast = Stmt.assign(LValue(root: .variable(last), path: []), .effect(fork(w)), loc)
            return block([loop([takeAction, cancelLast, forkLast])])
        case .leading:
            // loop { let a = take P; call B }, as fork and join, which waits the same way.
            // Short turns know the statements by their order (`Interpreter.WatcherStatement`).
            let forkT = Stmt.declare(hidden(w, "task"), isMutable: false, .effect(fork(w)), loc)
            let joinT = Stmt.effect(leadingJoinEffect(w), loc)
            return block([loop([takeAction, forkT, joinT])])
        case .throttle:
            // let ch = actionChannel P (sliding buffer of one); loop { let a = take ch; fork { B }; delay D }
            let ch = hidden(w, "channel")
            let makeChannel = Stmt.declare(
                ch, isMutable: false,
                .effect(.actionChannel(w.pattern, buffer: .literal(.string(slidingMarker), loc), .sliding, loc)),
                loc)
            let takeCh = Stmt.declare(
                w.binding, isMutable: true, .effect(.take(.expr(.variable(ch)), where: nil, loc)), loc)
            let pause = Stmt.effect(.delay(w.duration ?? .literal(.int(0), loc), value: nil, loc), loc)
            return block([makeChannel, loop([takeCh, forkBody, pause])])
        case .debounce:
            // loop { var a = take P; loop { let r = race { t: delay D, n: take P };
            //        if has(r, "t") { fork { B }; break }; a = r.n } }
            let r = hidden(w, "race")
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
                        body: block([forkBody, .break(loc)]))
                ], else: nil, loc)
            let again = Stmt.assign(
                LValue(root: .variable(w.binding), path: []), .expr(.member(.variable(r), "n", loc)), loc)
            return block([loop([takeAction, loop([race, fired, again])])])
        }
    }
}
