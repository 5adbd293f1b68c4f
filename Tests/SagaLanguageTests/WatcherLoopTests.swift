import SagaCore
import Testing

@testable import SagaLanguage

/// The checker builds each watcher's loop once (``Watcher/loop``), its hidden variable in a
/// slot of the enclosing declaration, before the binding's.
@Suite struct WatcherLoopTests {
    private func watchers(_ source: String) throws -> [Watcher] {
        let result = CheckerTests.compile(source)
        let saga = try #require(result.program?.sagas.first, "\(result.renderedDiagnostics)")
        return saga.body.statements.compactMap { statement in
            guard case .effect(.watcher(let watcher), _) = statement else { return nil }
            return watcher
        }
    }

    @Test func eachHiddenVariableTakesTheNextSlotBeforeTheBinding() throws {
        let found = try watchers(
            """
            saga main {
              let n = 1
              every "a" as a { log a }
              latest "b" as b { log n }
              leading "c" as c { log c }
              throttle 10 "d" as d { log d }
              debounce 10 "e" as e { log e }
            }
            """)
        #expect(found.map(\.hiddenSlot) == [-1, 2, 4, 6, 8])
        #expect(found.map(\.binding.slot) == [1, 3, 5, 7, 9])
    }

    @Test func aLatestLoopCancelsTheLastBodyKeptInItsHiddenVariable() throws {
        let latest = try #require(try watchers(#"saga main { latest "b" as b { log b } }"#).first)
        guard case .loop(let loop, _)? = latest.loop.statements.first, loop.statements.count == 3,
            case .declare(let binding, _, .effect(.take), _) = loop.statements[0],
            case .if(let arms, nil, _) = loop.statements[1],
            case .effect(.cancel(.variable(let cancelled), _), _)? = arms.first?.body.statements.first,
            case .assign(let last, .effect(.fork(.block(let body), _)), _) = loop.statements[2],
            case .variable(let kept) = last.root
        else {
            Issue.record("not latest's loop: \(latest.loop.statements)")
            return
        }
        #expect(binding.slot == latest.binding.slot)
        #expect(cancelled.slot == latest.hiddenSlot)
        #expect(kept.slot == latest.hiddenSlot)
        #expect(body.statements.count == 1)
    }

    @Test func aThrottleLoopTakesFromAChannelMadeBeforeIt() throws {
        let throttle = try #require(try watchers(#"saga main { throttle 5 "d" as d { log d } }"#).first)
        let statements = throttle.loop.statements
        guard statements.count == 2,
            case .declare(let channel, _, .effect(.actionChannel(_, _, .sliding, _)), _) = statements[0],
            case .loop(let loop, _) = statements[1],
            case .declare(_, _, .effect(.take(.expr(.variable(let taken)), _, _)), _) = loop.statements.first
        else {
            Issue.record("not throttle's loop: \(statements)")
            return
        }
        #expect(channel.slot == throttle.hiddenSlot)
        #expect(taken.slot == throttle.hiddenSlot)
    }
}

/// The checker builds each `retry`'s loop once (``RetryLoop``), its five hidden variables in
/// slots of the enclosing declaration after the retried effect's own.
@Suite struct RetryLoopTests {
    @Test func theLoopComparesAttemptsWithTheCountInItsHiddenVariable() throws {
        let result = CheckerTests.compile(
            """
            saga main {
              let n = 3
              let r = retry n backoff 10 all for k in [1, 2] { delay k }
              log r
            }
            """)
        let statements = try #require(result.program?.sagas.first?.body.statements, "\(result.renderedDiagnostics)")
        guard case .declare(let r, _, .effect(.retry(_, _, .allFor(let k, _, _, _), let loop, _)), _) = statements[1]
        else {
            Issue.record("not a retry: \(statements[1])")
            return
        }
        // n is 0, the loop's k 1; the hidden variables 2 to 6; r 7.
        #expect(k.slot == 1)
        #expect(loop.firstSlot == 2)
        #expect(r.slot == 7)
        // wait = 10; loop { try { … } catch error { attempt = attempt + 1; if attempt >= count … } }
        guard loop.body.statements.count == 2, case .loop(let turn, _) = loop.body.statements[1],
            case .try(_, let handler?, nil, _)? = turn.statements.first,
            case .if(let arms, nil, _) = handler.body.statements[1],
            case .binary(.greaterEqual, .variable(let attempt), .variable(let count), _)? = arms.first?.condition
        else {
            Issue.record("not retry's loop: \(loop.body.statements)")
            return
        }
        #expect(attempt.slot == loop.firstSlot)
        #expect(count.slot == loop.countSlot)
        #expect(handler.binding.slot == loop.firstSlot + 3)
    }
}
