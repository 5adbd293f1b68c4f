import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// An `every` body whose code only computes, selects, logs and puts runs in its watcher's turn,
/// with no task of its own, and gets one only where it would wait or fails.
///
/// None of it may show: each program here runs both ways (with the short cuts and without,
/// `Options.shortCuts`) and the two runs must agree on transcript, errors, status and final state.
@Suite struct InlineBodyTests {
    private static func actions(_ type: String, _ count: Int) -> [String] {
        (1...count).map { #"{"type":"\#(type)","n":\#($0)}"# }
    }

    private func body(_ source: String) -> Block? {
        let program = Frontend().compile(source: "saga main { every \"a\" as a { \(source) } }", path: "t.saga").program
        for saga in program?.sagas ?? [] {
            for case .effect(.watcher(let watcher), _) in saga.body.statements { return watcher.body }
        }
        return nil
    }

    /// The code of `block`, a watcher's body, over a frame large enough for any test here.
    private func code(_ block: Block) -> Code? {
        Code(sagaBody: block.statements, slotCount: 16)
    }

    @Test func bodiesThatComputeSelectPutAndLogRunInline() throws {
        let inline = [
            ("", 1),
            ("let x = a.n + 1; var y = x * 2; y = y + 1; log \"\\(y)\"", 5),
            ("let c = select state; let d = select; select state.n + 1", 4),
            ("put \"b\"; let p = put \"c\" { n: a.n }; put \"d\" { n: 1 }", 4),
            ("if a.n > 1 { log \"x\" } else if a.n > 0 { if a.n == 1 { put \"b\" } } else { let y = 2 }", 6),
            ("var r = {n: 1}; r.n = 2", 3),
            ("try { put \"b\" } catch e { log \"\\(e.message)\" }", 6),
        ]
        for (source, steps) in inline {
            let block = try #require(body(source), "\(source)")
            #expect(code(block)?.inlineSteps == steps, "\(source)")
        }
        let asTasks = [
            "let b = take \"b\"", "delay 1", "if a.n > 1 { delay 1 }", "put a.type", "fork { log \"x\" }",
            "try { log \"x\" } finally { log \"y\" }", "var i = 0; while i < 2 { i = i + 1 }",
            "try { log \"x\" } catch e { log \"y\" } finally { log \"z\" }", "transaction { put \"b\" }",
        ]
        for source in asTasks {
            let block = try #require(body(source), "\(source)")
            #expect(code(block) != nil, "\(source)")
            #expect(code(block)?.inlineSteps == nil, "\(source)")
        }
    }

    /// A `fork` into a watcher's hidden variable may run its block inline; into any other, not.
    ///
    /// `latest` keeps its last body's handle and `leading` joins its body, both in the
    /// watcher's hidden variable, which only the loop's own statements read.
    @Test func forksIntoAWatchersHiddenVariableMayRunInline() throws {
        let source = """
            saga main {
              latest "a" as a { log "x" }
              leading "b" as b { log "y" }
              every "c" as c { let t = fork { log "z" }; log "\\(t)" }
            }
            """
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let saga = try #require(program.sagas.first)
        func forks(_ code: Code) -> [Code.Site] {
            code.sites.filter { if case .fork? = Compiler.effect(of: $0.statement) { true } else { false } }
        }
        var marked: [Bool] = []
        for case .effect(.watcher(let watcher), _) in saga.body.statements {
            // As the interpreter marks a watcher's loop when it starts it.
            let loop = try #require(Code(sagaBody: watcher.loop.statements, slotCount: 16))
            if watcher.hiddenSlot >= 0 { loop.markHiddenHandles(in: watcher.hiddenSlot) }
            marked += forks(loop).map(\.handleIsHidden)
            if watcher.kind == .every {
                let body = try #require(Code(sagaBody: watcher.body.statements, slotCount: 16))
                marked += forks(body).map(\.handleIsHidden)
            }
        }
        #expect(marked == [true, true, false, false])
    }

    /// Each body starts from the watcher's variables as they were when it started, as a
    /// forked block does.
    @Test func eachBodyReadsTheWatchersVariables() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let total = 100
              every "a" as a { var seen = total; seen = seen + a.n; log "total \\(seen)" }
            }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines == ["total 101", "total 102", "total 103"])
    }

    /// The bodies take their numbers as tasks would: a task forked after them has the same.
    @Test func bodiesTakeTheNumbersTheirTasksWould() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a { log "body \\(a.n)" }
              every "done" as d { let t = fork { log "forked" }; log "handle \\(t)" }
            }
            """, input: Self.actions("a", 3) + [#"{"type":"done"}"#])
        #expect(outcome.lines.contains { $0.hasPrefix("handle \"<task ") })
    }

    @Test func aPutThatWakesATaskResumesTheBodyAfterIt() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                log "before \\(a.n)"
                let p = put "seen" { n: a.n }
                log "after \\(p.n)"
              }
              every "seen" as s { log "seen \\(s.n)" }
            }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines == ["before 1", "seen 1", "after 1", "before 2", "seen 2", "after 2"])
    }

    /// The watcher takes again before the body's first `put` is processed: a body putting
    /// what its own watcher takes is seen by it. (The second body fails at once: its action
    /// has no `first`.)
    @Test func theWatcherTakesAgainBeforeItsBodysPut() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a { let f = len(a.first); log "a \\(a.n)"; put "a" { n: a.n + 10 } }
            }
            """, input: [#"{"type":"a","n":1,"first":"yes"}"#])
        #expect(outcome.lines == ["a 1"])
        #expect(outcome.errors.joined().contains("len"))
    }

    /// Another task woken by the same action runs before the body's `put` is processed: the
    /// body waits on its `put` with the action queued, as a task's `put` does.
    @Test func aPutBehindOtherWorkWaitsForItsTurn() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { every "a" as a { log "body \\(a.n)"; put "b" { n: a.n }; log "body put \\(a.n)" } }
            saga other { loop { let a = take "a"; put "c" { n: a.n }; log "other \\(a.n)" } }
            saga watch { loop { let x = take "*"; log "saw \\(x.type) \\(x.n)" } }
            """, input: Self.actions("a", 2))
        #expect(
            outcome.lines.prefix(6) == ["body 1", "saw a 1", "saw b 1", "body put 1", "saw c 1", "other 1"])
    }

    @Test func aStatementThatFailsFailsTheBodyAndItsWatcher() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                log "body \\(a.n)"
                put "b" { n: a.n }
                let bad = len(a.n)
                log "unreached"
              }
              every "b" as b { log "b \\(b.n)" }
            }
            saga other { loop { let a = take "a"; log "other \\(a.n)" } }
            """, input: Self.actions("a", 2))
        #expect(outcome.status == .sagaFailed)
        #expect(!outcome.lines.contains("unreached"))
        #expect(outcome.errors.joined().contains("forked by"))
    }

    @Test func aFirstStatementThatFailsFailsBeforeTheWatcherTakesAgain() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { every "a" as a { let bad = a.n + null } }
            saga other { loop { let a = take "a"; log "other \\(a.n)" } }
            """, input: Self.actions("a", 2))
        #expect(outcome.status == .sagaFailed)
    }

    /// A reducer that fails is reported; the `put` itself does not fail.
    @Test func aReducerThatFailsOnTheBodysPutIsReportedAndTheBodyGoesOn() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            state { items: [] }
            reduce "add" as a { state.items[5] = a.n }
            saga main { every "a" as a { log "body \\(a.n)"; put "add" { n: a.n }; log "after \\(a.n)" } }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines == ["body 1", "after 1", "body 2", "after 2"])
        #expect(outcome.errors.count == 2)
    }

    /// An `if` in a body runs inline too; a body that gets its task inside an arm (a `put`
    /// that wakes a task, a statement that fails) goes on after the `if` as a task would.
    @Test func aBodyGoesOnAfterAnIfFromWhereverInItItGotItsTask() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                log "body \\(a.n)"
                if a.n == 1 {
                  put "quiet" { n: a.n }
                  log "quiet \\(a.n)"
                } else if a.n == 2 {
                  if a.n > 1 { put "loud" { n: a.n } }
                  log "loud \\(a.n)"
                } else if a.n == 3 {
                  let bad = len(a.n)
                } else {
                  log "none \\(a.n)"
                }
                log "end \\(a.n)"
              }
              every "loud" as l { log "heard \\(l.n)" }
            }
            """, input: Self.actions("a", 2) + [#"{"type":"a","n":4}"#, #"{"type":"a","n":3}"#])
        #expect(
            outcome.lines == [
                "body 1", "quiet 1", "end 1", "body 2", "heard 2", "loud 2", "end 2", "body 4", "none 4",
                "end 4", "body 3",
            ])
        #expect(outcome.status == .sagaFailed)
    }

    @Test func anIfWhoseConditionFailsFailsTheBodyAtTheIf() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { every "a" as a { log "body"; if a.n { log "then" }; log "unreached" } }
            """, input: Self.actions("a", 1))
        #expect(outcome.lines == ["body"])
        #expect(outcome.errors.joined().contains("(test.saga:1:42)"))
    }

    /// `latest` cancels the body it started last when the next action comes: body 1 got its
    /// task at its `put` (queued behind action 2) and is cancelled there; bodies that ended
    /// inline leave nothing to cancel.
    @Test func latestCancelsABodyThatGotItsTaskAndNotOneThatEnded() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              latest "a" as a { log "body \\(a.n)"; put "b" { n: a.n }; log "after \\(a.n)" }
              latest "c" as c { log "c \\(c.n)" }
              every "b" as b { log "b \\(b.n)" }
            }
            saga feeder {
              fork { put "a" { n: 1 } }
              fork { put "a" { n: 2 } }
              put "c" { n: 1 }
              put "c" { n: 2 }
            }
            """, input: [#"{"type":"a","n":3}"#])
        #expect(
            outcome.lines == [
                "body 1", "body 2", "c 1", "b 1", "b 2", "after 2", "c 2", "body 3", "b 3", "after 3",
            ])
    }

    /// A body as long as the steps a task may take without an effect, or longer, fails as a
    /// task does: the step that finds the body's end counts too.
    @Test(arguments: [3, 4, 5])
    func aBodyNearTheStepLimitFailsOrNotAsATask(maxSteps: Int) async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main { every "a" as a { let x = 1; let y = 2; let z = 3; log "\\(x + y + z)" } }
            """, input: Self.actions("a", 1), configure: { $0.maxSteps = maxSteps })
        #expect((outcome.status == .success) == (maxSteps > 4))
    }

    /// Any `fork` block runs inline where nobody can tell, not only a watcher's: one whose handle
    /// is dropped, or one the code joins next (`let t = fork { … }; join t`), whose `put` is
    /// processed on the spot since its parent would only block on the join meanwhile.
    @Test func forkedBlocksJoinedNextPutOnTheSpotAndAreJoinedOnceTheyEnd() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "seen" as s { log "seen \\(s.n)" }
              let t = fork { log "child"; put "seen" { n: 1 }; log "child after put" }
              log "parent before join"
              let r = join t
              log "joined \\(r)"
              let u = fork { put "seen" { n: 2 } }
              join u
              log "joined u"
              fork { put "seen" { n: 3 } }
              log "after a dropped fork"
            }
            """)
        #expect(
            outcome.lines == [
                "child", "parent before join", "seen 1", "child after put", "joined null", "seen 2", "joined u",
                "after a dropped fork", "seen 3",
            ])
    }

    /// A block that fails in its parent's turn fails at once, as in its first turn as a task:
    /// its parent is aborted before its next statement.
    @Test func aForkedBlockThatFailsInItsFirstTurnAbortsItsParentThere() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              fork { log "a"; let y = len(5); log "\\(y)" }
              log "not reached"
            }
            saga other { delay 1; log "other goes on" }
            """)
        #expect(outcome.lines == ["a", "other goes on"])
        #expect(outcome.errors.contains { $0.contains("len expects a string, list or record, got number") })
        #expect(outcome.errors.contains { $0.contains("at fork block (test.saga:2:") })
    }

    /// A `fork` the code would start where it stands, past the limit of tasks, fails as its
    /// statement does: catchable, and reported at the statement.
    @Test func aForkPastTheTaskLimitFailsAtItsStatement() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let a = fork { delay 1 }
              try { let b = fork { delay 1 } } catch e { log "caught \\(e.message)" }
              fork { delay 1 }
            }
            """, configure: { $0.maxTasks = 2 })
        #expect(outcome.lines == ["caught more than 2 tasks would be alive at once; raise the limit with --max-tasks"])
        #expect(outcome.errors.contains { $0.contains("at saga main (test.saga:4:3)") })
    }

    /// A body inside `try` … `catch` runs inline; an error there goes to the `catch`, which
    /// runs in the task the body gets at the instruction that failed, before the watcher takes
    /// again.
    @Test func anErrorInATryOfABodyGoesToItsCatch() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                try {
                  log "try \\(a.n)"
                  if a.n == 2 { let bad = len(a.n) }
                  log "tried \\(a.n)"
                } catch e {
                  log "caught \\(a.n): \\(e.message)"
                }
                log "after \\(a.n)"
              }
            }
            saga other { loop { let a = take "a"; log "other \\(a.n)" } }
            """, input: Self.actions("a", 3))
        #expect(
            outcome.lines == [
                "try 1", "tried 1", "after 1", "other 1", "try 2",
                "caught 2: len expects a string, list or record, got number", "after 2", "other 2", "try 3",
                "tried 3", "after 3", "other 3",
            ])
        #expect(outcome.errors == [])
        #expect(outcome.status == .success)
    }

    /// A body that gets its task inside a `try` stands in that `try` as its task.
    ///
    /// It gets it at a `put` whose action woke a task: an error after the `put` is caught. An
    /// error past the `try`s is not, nor by a `try` the body ended before it had its task.
    @Test func aBodyThatGetsItsTaskInsideATryStandsInIt() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                try { log "start \\(a.n)" } catch e { log "never" }
                try {
                  try { put "b" { n: a.n }; let bad = len(a.n) } catch inner { log "inner \\(a.n)" }
                  put "b" { n: a.n + 10 }
                  let worse = a.n + null
                } catch outer {
                  log "outer \\(a.n)"
                }
                put "b" { n: a.n + 20 }
                if a.n == 2 { let last = len(a.n) }
                log "end \\(a.n)"
              }
              every "b" as b { log "b \\(b.n)" }
            }
            """, input: Self.actions("a", 2))
        #expect(
            outcome.lines == [
                "start 1", "b 1", "inner 1", "b 11", "outer 1", "b 21", "end 1", "start 2", "b 2", "inner 2",
                "b 12", "outer 2", "b 22",
            ])
        #expect(outcome.status == .sagaFailed)
        #expect(outcome.errors.joined().contains("len expects a string, list or record, got number"))
    }
}
