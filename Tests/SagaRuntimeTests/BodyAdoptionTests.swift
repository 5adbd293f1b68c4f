import Testing

/// A watcher's body that does not run inline still takes its first turn at once, in its
/// loop's `fork`, as a child of the watcher.
///
/// None of it may show: each program here runs both ways (with the short cuts and without,
/// `Options.shortCuts`) and the two runs must agree on transcript, errors, status and final
/// state.
@Suite struct BodyAdoptionTests {
    private static func actions(_ type: String, _ count: Int) -> [String] {
        (1...count).map { #"{"type":"\#(type)","n":\#($0)}"# }
    }

    /// Bodies that wait after a `put` processed at once are the watcher's children: cancelling
    /// the watcher's task cancels them, in the order they started.
    @Test func bodiesThatWaitAfterAPutAreCancelledWithTheirWatcher() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              let w = fork {
                every "a" as a {
                  put "b" { n: a.n }
                  try { take "never" } finally { log "body \\(a.n) cancelled = \\(cancelled)" }
                }
              }
              take "stop"
              cancel w
              log "done"
            }
            """, input: Self.actions("a", 2) + [#"{"type":"stop"}"#])
        #expect(outcome.lines == ["body 1 cancelled = true", "body 2 cancelled = true", "done"])
        #expect(outcome.status == .success)
    }

    /// A body that fails after a `put` processed at once fails its watcher, and the watcher's
    /// other bodies are cancelled.
    @Test func aBodyThatFailsAfterAPutFailsItsWatcher() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                put "b"
                if a.n == 2 { throw "body \\(a.n) failed" }
                try { take "never" } finally { log "body \\(a.n) cancelled = \\(cancelled)" }
              }
            }
            """, input: Self.actions("a", 2))
        #expect(outcome.lines == ["body 1 cancelled = true"])
        #expect(outcome.status == .sagaFailed)
    }

    /// Bodies that end at once, in the task of the body before, take their numbers and see
    /// their own actions, however many run; `latest` cancels only the one that still waits.
    @Test func bodiesThatEndAtOnceAndOnesThatWaitAlternate() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              latest "a" as a {
                try {
                  let t = fork { log "child of \\(a.n)" }
                  if a.n % 2 == 0 { take "go" }
                  log "body \\(a.n) ends"
                } finally { if cancelled { log "body \\(a.n) cancelled" } }
              }
            }
            """, input: Self.actions("a", 5))
        #expect(
            outcome.lines == [
                "child of 1", "body 1 ends", "child of 2", "body 2 cancelled", "child of 3", "body 3 ends",
                "child of 4", "body 4 cancelled", "child of 5", "body 5 ends",
            ])
    }

    /// A body that ends having made work (a task it forked) lets that work run before its
    /// watcher takes again, as redux-saga's fork runs the child first: the child's `take`
    /// waits first, and the next action reaches it before the watcher.
    @Test func workABodyMadeRunsBeforeItsWatcherTakesAgain() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              every "a" as a {
                try {
                  log "body \\(a.n)"
                  fork { let q = take "a"; log "child of \\(a.n) saw \\(q.n)" }
                } catch e { log "caught" }
              }
            }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines == ["body 1", "child of 1 saw 2", "body 2", "child of 2 saw 3", "body 3"])
    }

    /// The same for `leading`, whose next turn joins the body: a task the body spawned takes
    /// first, and sees the next action before the watcher starts its next body.
    @Test func workALeadingBodyMadeRunsBeforeItsWatcherJoinsIt() async {
        let outcome = await runWithAndWithoutShortCuts(
            """
            saga main {
              leading "a" as a {
                try {
                  log "body \\(a.n)"
                  spawn { let q = take "a"; log "spawned by \\(a.n) saw \\(q.n)" }
                } catch e { log "caught" }
              }
            }
            """, input: Self.actions("a", 3))
        #expect(outcome.lines == ["body 1", "spawned by 1 saw 2", "body 2", "spawned by 2 saw 3", "body 3"])
    }
}
