import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A `leading` body runs in its watcher's turn too, and the watcher, which joins its body,
/// takes again only once the body has ended: actions that come while the body runs are
/// dropped, those after it are taken.
///
/// As for `every` (``InlineBodyTests``), each program runs both ways (with the short cuts and
/// without) and the two runs must agree on transcript, errors, status and final
/// state.
@Suite struct InlineLeadingBodyTests {
    private static func actions(_ type: String, _ count: Int) -> [String] {
        (1...count).map { #"{"type":"\#(type)","n":\#($0)}"# }
    }

    /// Bodies that end inline: each action comes after the last body has ended, so each is taken.
    @Test func bodiesThatEndInlineTakeEveryActionThatComesAfterThem() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            state { count: 0 }
            reduce "add" as a { state.count = state.count + a.by }
            saga main {
              leading "a" as a {
                let c = select state.count
                put "add" { by: a.n }
                if a.n % 2 == 0 { log "even \\(a.n) after \\(c)" } else { log "odd \\(a.n) after \\(c)" }
              }
            }
            """, input: Self.actions("a", 4))
        #expect(outcome.lines == ["odd 1 after 0", "even 2 after 1", "odd 3 after 3", "even 4 after 6"])
    }

    /// The body's `put` is processed while the watcher waits on its join, so a body putting what
    /// its own watcher takes is not seen by it (an `every` would see it: ``InlineBodyTests``).
    @Test func aBodysOwnPutIsNotTakenByItsWatcher() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              leading "a" as a { log "a \\(a.n)"; if a.n < 100 { put "a" { n: a.n + 100 } } }
              every "a" as seen { log "seen \\(seen.n)" }
            }
            """, input: Self.actions("a", 2))
        // (The `every` watcher takes "a 2" first: it took again before the leading one, which
        // waited for its body's end.)
        #expect(outcome.lines == ["a 1", "seen 1", "seen 101", "seen 2", "a 2", "seen 102"])
    }

    /// A `put` that wakes another task gives the body its task there, and the watcher waits on
    /// its join.
    ///
    /// The woken task's own `put` waits behind the body, which ends first: the watcher has
    /// taken again by the time that action is processed, and takes it.
    @Test func aPutThatWakesATaskMakesTheWatcherWaitForTheBody() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              leading "a" as a { log "body \\(a.n)"; let p = put "seen" { n: a.n }; log "after \\(p.n)" }
              every "seen" as s { log "seen \\(s.n)"; if s.n < 100 { put "a" { n: s.n + 100 } } }
            }
            """, input: Self.actions("a", 2))
        #expect(
            outcome.lines == [
                "body 1", "seen 1", "after 1", "body 101", "seen 101", "after 101",
                "body 2", "seen 2", "after 2", "body 102", "seen 102", "after 102",
            ])
    }

    /// A `put` behind other work waits for its turn with its action queued, and the watcher
    /// joins the body: the "a" that `other` puts meanwhile is processed after the body has
    /// ended, so the watcher takes it.
    @Test func aPutBehindOtherWorkWaitsAndTheWatcherJoins() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { leading "a" as a { log "body \\(a.n)"; put "b" { n: a.n }; log "body put \\(a.n)" } }
            saga other { loop { let a = take "a"; put "a" { n: a.n + 10 }; log "other \\(a.n)" } }
            saga watch { loop { let x = take "*"; log "saw \\(x.type) \\(x.n)" } }
            """, input: Self.actions("a", 2))
        #expect(
            outcome.lines == [
                "body 1", "saw a 1", "saw b 1", "body put 1", "saw a 11", "body 11", "other 1", "saw b 11",
                "body put 11", "saw a 2", "body 2", "saw a 12", "other 2", "saw b 2", "body put 2",
            ])
    }

    /// A statement that cannot run inline gives the body its task where it stands; the
    /// watcher joins it, and the actions that come while it waits are dropped.
    @Test func aBodyThatWaitsDropsTheActionsThatComeMeanwhile() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              leading "a" as a { log "start \\(a.n) at \\(now())"; put "b" { n: a.n }; delay 10; log "end \\(a.n)" }
            }
            saga feeder {
              put "a" { n: 1 }; delay 5; put "a" { n: 2 }; delay 10; put "a" { n: 3 }
            }
            """)
        #expect(outcome.lines == ["start 1 at 0", "end 1", "start 3 at 15", "end 3"])
    }

    /// A statement that fails fails the body there, and the watcher with it, as the `join`
    /// statement does; so does a first statement that fails.
    @Test(arguments: [
        #"log "body \(a.n)"; put "b" { n: a.n }; let bad = len(a.n); log "unreached""#,
        "let bad = a.n + null",
    ])
    func aStatementThatFailsFailsTheBodyAndItsWatcher(body: String) async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { leading "a" as a { \(body) } }
            saga other { loop { let a = take "a"; log "other \\(a.n)" } }
            """, input: Self.actions("a", 2))
        #expect(outcome.status == .sagaFailed)
        #expect(!outcome.lines.contains("unreached"))
    }
}
