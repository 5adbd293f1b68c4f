import SagaCore
import SagaLanguage
@_spi(Testing) import SagaRuntime
import Testing

/// The interpreter's short cuts must not show.
///
/// A `put` processed on the spot (`dispatchAtOnce`), a watcher's body taking its first turn in
/// the loop's `fork`, with no task where it can (`runInline`), and the loop going back to its
/// `take` at once (`continueToTake`) do what the dispatch queue and the run queue would have
/// done, in the same order.
///
/// Each program here runs twice, with the short cuts and without them (the statements as
/// written), and the two runs must agree on everything: transcript, errors, status and final
/// state.
@Suite struct WatcherOrderTests {
    /// Runs `source` both ways; returns the (agreed) outcome for further checks.
    @discardableResult
    private func expectSameBothWays(
        _ source: String, input: [String] = [], maxTasks: Int? = nil, yieldAfterSteps: Int? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> ConfiguredRun {
        func options(shortCuts: Bool) -> (inout Interpreter.Options) -> Void {
            { options in
                options.shortCuts = shortCuts
                if let maxTasks { options.maxTasks = maxTasks }
                options.yieldAfterSteps = yieldAfterSteps
            }
        }
        let short = await runConfigured(source, input: input, options(shortCuts: true))
        let long = await runConfigured(source, input: input, options(shortCuts: false))
        #expect(short.status != nil, "does not compile", sourceLocation: sourceLocation)
        #expect(short == long, sourceLocation: sourceLocation)
        return short
    }

    private static func actions(_ type: String, _ count: Int) -> [String] {
        (1...count).map { #"{"type":"\#(type)","n":\#($0)}"# }
    }

    @Test func aWatcherAndAnotherTakerOfTheSameActionKeepTheirOrder() async {
        let outcome = await expectSameBothWays(
            """
            saga early { loop { let a = take "a"; log "early \\(a.n)" } }
            saga main {
              every "a" as a { log "every \\(a.n)"; put "seen" { n: a.n } }
              every "seen" as s { log "seen \\(s.n)" }
            }
            saga late { loop { let a = take "*"; log "late \\(a.type) \\(a.n)" } }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines.count == 15)
    }

    @Test func aChildPuttingWhatItsWatcherTakesIsSeenByTheWatcher() async {
        let outcome = await expectSameBothWays(
            """
            state { count: 0 }
            reduce "ping" as a { state.count = state.count + 1 }
            saga main {
              every "ping" as p {
                let c = select state.count
                log "ping \\(p.n) count \\(c)"
                if p.n < 5 { put "ping" { n: p.n + 1 } }
              }
            }
            """, input: Self.actions("ping", 2))
        #expect(outcome.state == ["count": 9])
    }

    /// The child runs until it blocks before its watcher takes again: the child's `take`
    /// comes first, so an action both wait for wakes the child first.
    @Test func aChildsTakeComesBeforeItsWatchersNextTake() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              every "*" as a { log "child got \\(a.n)"; let b = take "*"; log "child took \\(b.n)" }
            }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines == ["child got 1", "child took 2", "child got 2"])
    }

    @Test func childrenThatWaitOverlap() async {
        await expectSameBothWays(
            """
            saga main {
              every "job" as j {
                log "start \\(j.n)"
                delay 10ms * (4 - j.n)
                log "done \\(j.n)"
                put "finished" { n: j.n }
              }
              every "finished" as f { log "finished \\(f.n)" }
            }
            """, input: Self.actions("job", 3))
    }

    @Test func latestBodiesThatEndBeforeTheNextActionAndOnesThatDoNot() async {
        // Actions 1-3 come at once (each cancels the one before); 4 and 5 come after the
        // last body has ended, when cancelling it does nothing.
        let outcome = await expectSameBothWays(
            """
            saga main {
              latest "a" as a {
                try {
                  log "start \\(a.n)"
                  if a.n <= 3 { delay 10 }
                  log "end \\(a.n) at \\(now())"
                } finally { if cancelled { log "cancelled \\(a.n)" } }
              }
            }
            saga feeder {
              put "a" { n: 1 }; put "a" { n: 2 }; put "a" { n: 3 }
              delay 20
              put "a" { n: 4 }; put "a" { n: 5 }
              put "later" { n: 6 }
            }
            saga later { every "later" as l { delay 1; put "a" { n: 7 } } }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines.contains("cancelled 1"))
        #expect(outcome.lines.contains("end 5 at 20"))
        #expect(outcome.lines.contains("end 7 at 21"))
    }

    @Test func aLatestBodyBeingCancelledAlreadyIsNotCancelledAgain() async {
        // Each body cancels itself and is still in its finally when the next action comes:
        // cancelling it again does nothing.
        let outcome = await expectSameBothWays(
            """
            saga main {
              latest "go" as a {
                try { log "body \\(a.n)"; cancel } finally {
                  log "finally \\(a.n) \\(cancelled) at \\(now())"; delay 5; log "finally \\(a.n) done at \\(now())"
                }
              }
            }
            saga feeder { delay 1; put "go" { n: 1 }; delay 2; put "go" { n: 2 }; delay 10; put "go" { n: 3 } }
            """)
        #expect(
            outcome.lines == [
                "body 1", "finally 1 true at 1", "body 2", "finally 2 true at 3", "finally 1 done at 6",
                "finally 2 done at 8", "body 3", "finally 3 true at 13", "finally 3 done at 18",
            ])
    }

    @Test func aLatestBodyThatEndedWithChildrenStillRunningIsCancelled() async {
        // The last body has ended but its child runs: cancelling it cancels the child, so the
        // child is cancelled with it.
        let outcome = await expectSameBothWays(
            """
            saga main {
              latest "go" as a {
                fork {
                  try { delay 10; log "child \\(a.n) done at \\(now())" } finally {
                    if cancelled { log "child \\(a.n) cancelled at \\(now())" }
                  }
                }
                log "body \\(a.n) ends"
              }
            }
            saga feeder { delay 1; put "go" { n: 1 }; delay 2; put "go" { n: 2 }; delay 20; put "go" { n: 3 } }
            """)
        #expect(
            outcome.lines == [
                "body 1 ends", "child 1 cancelled at 3", "body 2 ends", "child 2 done at 13", "body 3 ends",
                "child 3 done at 33",
            ])
    }

    @Test func latestBodiesThatFail() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              try {
                latest "a" as a { log "ok \\(a.n)"; if a.n == 3 { throw "boom \\(a.n)" } }
              } finally {
                log "finally"
              }
            }
            saga other { latest "a" as a { delay a.n; log "other \\(a.n) at \\(now())" } }
            """, input: Self.actions("a", 4))
        #expect(outcome.status == .sagaFailed)
    }

    @Test func leadingBodiesThatEndAtOnceAndOnesThatWait() async {
        // Body 2 waits, so the actions that come meanwhile (3 and 4) are dropped; the others
        // end at once. Each body's put is seen by another watcher.
        let outcome = await expectSameBothWays(
            """
            saga main {
              leading "a" as a {
                log "start \\(a.n) at \\(now())"
                if a.n == 2 { delay 10 }
                put "done" { n: a.n }
              }
              every "done" as d { log "done \\(d.n) at \\(now())" }
            }
            saga feeder {
              put "a" { n: 1 }; put "a" { n: 2 }; delay 1; put "a" { n: 3 }; put "a" { n: 4 }
              delay 20; put "a" { n: 5 }; put "a" { n: 6 }
            }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines.contains("start 2 at 0"))
        #expect(!outcome.lines.contains { $0.hasPrefix("start 3") })
        #expect(outcome.lines.contains("done 2 at 10"))
        #expect(outcome.lines.contains("start 5 at 21"))
    }

    @Test func aLeadingBodyTakingWhatItsWatcherTakes() async {
        // The body waits for the next "a": the watcher, joining it, does not take that one.
        let outcome = await expectSameBothWays(
            """
            saga main {
              leading "a" as a { let b = take "a"; log "pair \\(a.n) \\(b.n)" }
            }
            """, input: Self.actions("a", 5))
        #expect(outcome.lines == ["pair 1 2", "pair 3 4"])
    }

    @Test func leadingBodiesThatFailOrCancelThemselves() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              try {
                leading "a" as a {
                  try { log "body \\(a.n)"; if a.n == 2 { cancel } } finally {
                    if cancelled { log "cancelled \\(a.n)" }
                  }
                }
              } finally {
                log "watcher ends, cancelled \\(cancelled)"
              }
            }
            saga other {
              try {
                leading "a" as a { if a.n == 3 { throw "boom \\(a.n)" }; log "other \\(a.n)" }
              } finally { log "other ends" }
            }
            """, input: Self.actions("a", 4))
        #expect(outcome.lines.contains("cancelled 2"))
        #expect(outcome.status == .sagaFailed)
    }

    @Test func aLeadingWatcherCancelledWhileItsBodyRuns() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              let w = fork { leading "a" as a { log "body \\(a.n)"; put "stop"; delay 5; log "never" } }
              take "stop"
              cancel w
              log "cancelled at \\(now())"
            }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines == ["body 1", "cancelled at 0"])
    }

    /// The body's `put` into a channel wakes a task that cancels the watcher before its second
    /// turn (joining the body) has run.
    @Test func aLeadingWatcherCancelledBetweenItsTurns() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              let ch = channel
              let w = fork {
                leading "a" as a { log "body \\(a.n)"; put ch a.n; log "body \\(a.n) ends" }
              }
              let n = take ch
              cancel w
              log "cancelled after \\(n)"
            }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines == ["body 1", "cancelled after 1"])
    }

    /// Too many tasks for the fork of a later action, after a first body has ended: the
    /// watcher's statements run from its `take` and its `fork` fails, both ways.
    @Test func tooManyTasksForALeadingBodyFailsTheWatcherTheSameWay() async {
        let outcome = await expectSameBothWays(
            """
            saga main { leading "a" as a { log "body \\(a.n)" } }
            saga holder { take "b"; fork { take "never" }; log "holding" }
            """, input: [#"{"type":"a","n":1}"#, #"{"type":"b"}"#, #"{"type":"a","n":2}"#], maxTasks: 4)
        #expect(outcome.lines == ["body 1", "holding"])
        #expect(outcome.errors.first?.contains("more than 4 tasks would be alive at once") == true)
    }

    @Test func aWatcherCancelledWhileItsChildRuns() async {
        await expectSameBothWays(
            """
            saga main {
              let w = fork {
                every "a" as a { log "child \\(a.n)"; put "stop" }
              }
              take "stop"
              cancel w
              log "cancelled"
              take "a"
              log "after"
            }
            """, input: Self.actions("a", 3))
    }

    @Test func aFailingChildFailsItsWatcherAndItsSaga() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              try {
                every "a" as a { if a.n == 2 { throw "boom \\(a.n)" }; log "ok \\(a.n)" }
              } finally {
                log "finally"
              }
            }
            saga other { every "a" as a { log "other \\(a.n)" } }
            """, input: Self.actions("a", 3))
        #expect(outcome.status == .sagaFailed)
    }

    @Test func theEndOfInputEndsTheWatchers() async {
        await expectSameBothWays(
            """
            saga main {
              every "a" as a { let b = take "b"; log "pair \\(a.n) \\(b.n)" }
              log "watching"
            }
            """, input: [#"{"type":"a","n":1}"#, #"{"type":"b","n":2}"#, #"{"type":"a","n":3}"#])
    }

    /// A store of the `put`'s result that fails is reported at the statement, both ways.
    @Test func aFailingStoreOfAPutsResult() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              var n = 1
              n.a = put "x"
            }
            """)
        #expect(outcome.status == .sagaFailed)
        #expect(outcome.errors.first?.contains("at saga main (test.saga:3:3)") == true)
    }

    @Test func globAndListPatterns() async {
        await expectSameBothWays(
            """
            saga main {
              every "t/*" as a { log "glob \\(a.type)"; put "u" }
              every ["u", "t/b"] as a { log "list \\(a.type)" }
              every "*" as a { log "any \\(a.type)" }
            }
            """, input: [#"{"type":"t/a"}"#, #"{"type":"t/b"}"#, #"{"type":"v"}"#])
    }

    @Test func aWatcherStartedByACalledFunction() async {
        await expectSameBothWays(
            """
            func watch(prefix) { every "a" as a { log "\\(prefix) \\(a.n)"; put "b" { n: a.n } } }
            saga main {
              call watch("first")
              every "b" as b { log "b \\(b.n)" }
              log "started"
            }
            """, input: Self.actions("a", 3))
    }

    /// A step budget small enough to make a watcher yield between its statements
    /// (`--yield-after 1`) lets other work in between: the short cuts must not skip that.
    @Test func aTinyYieldBudgetKeepsItsOrder() async {
        for budget in [1, 2, 3, 4] {
            await expectSameBothWays(
                """
                saga main { every "a" as a { log "every \\(a.n)"; if a.n < 3 { put "a" { n: a.n + 1 } } } }
                saga other { loop { let a = take "a"; log "other \\(a.n)"; put "b" } }
                """, input: Self.actions("a", 1), yieldAfterSteps: budget)
            // `latest`'s turn is four steps once it has a last body to cancel.
            await expectSameBothWays(
                """
                saga main { latest "a" as a { log "latest \\(a.n)" } }
                saga other { every "a" as a { log "every \\(a.n)" } }
                """, input: Self.actions("a", 3), yieldAfterSteps: budget)
        }
    }

    @Test func tooManyTasksFailsTheWatcherTheSameWay() async {
        let outcome = await expectSameBothWays(
            """
            saga main {
              try { every "a" as a { take "never" } } catch e { log "caught \\(e.kind)" }
            }
            """, input: Self.actions("a", 5), maxTasks: 4)
        // An attached child's failure is not caught by its parent's `catch`: it aborts it.
        #expect(outcome.status == .sagaFailed)
        #expect(outcome.errors.first?.contains("more than 4 tasks would be alive at once") == true)
    }
}
