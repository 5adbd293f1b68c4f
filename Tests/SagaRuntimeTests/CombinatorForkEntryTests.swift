import SagaCore
import SagaRuntime
import Testing

/// A `fork`, `spawn` or watcher as an entry of `all` or `race` gives its task at once, and the
/// task belongs to the task running the `all` or `race`, as in redux-saga.
@Suite struct CombinatorForkEntryTests {
    @Test func allOfForksGivesTheirTasksAtOnce() async {
        let run = await runSaga(
            """
            saga main {
              let ts = all [fork { delay 100; log "a done at \\(now())" }, fork { delay 50; log "b done at \\(now())" }]
              log "all gave \\(len(ts)) tasks at \\(now())"
            }
            """)
        #expect(run.errors.isEmpty)
        #expect(run.lines == ["all gave 2 tasks at 0", "b done at 50", "a done at 100"])
    }

    @Test func aForkEntryWinsARaceAndItsTaskGoesOn() async {
        let run = await runSaga(
            """
            saga main {
              let r = race { t: fork { delay 30; log "forked task done at \\(now())" }, d: delay 10 }
              log "winner \\(keys(r)) at \\(now())"
            }
            """)
        #expect(run.errors.isEmpty)
        #expect(run.lines == ["winner [\"t\"] at 0", "forked task done at 30"])
    }

    @Test func workersForkedByAllForTakeFromTheirChannel() async {
        // The worker-pool idiom: `all` must not wait for the workers, which wait for jobs
        // that are put only after it.
        let run = await runSaga(
            """
            func worker(i, ch) {
              loop {
                let job = take ch
                log "worker \\(i) did \\(job)"
              }
            }
            saga main {
              let ch = channel
              let ws = all for i in range(2) { fork worker(i, ch) }
              log "\\(len(ws)) workers"
              put ch "j1"
              put ch "j2"
            }
            """)
        #expect(run.errors.isEmpty)
        #expect(run.lines == ["2 workers", "worker 0 did j1", "worker 1 did j2"])
    }

    @Test func aForkedEntrysTaskIsTheParentsChild() async {
        // Cancelling the parent cancels the task an `all` entry forked: it is the parent's.
        let run = await runSaga(
            """
            saga main {
              let parent = fork {
                all [fork { try { delay 100; log "not cancelled" } finally { if cancelled { log "cancelled at \\(now())" } } }]
                log "all done"
              }
              delay 10
              cancel parent
            }
            """)
        #expect(run.errors.isEmpty)
        #expect(run.lines == ["all done", "cancelled at 10"])
    }

    @Test func aFailingForkedEntryAbortsTheParent() async {
        let run = await runSaga(
            """
            saga main {
              try {
                all [fork { delay 5; throw "boom" }]
                log "all gave at \\(now())"
                delay 100
                log "not reached"
              } finally {
                log "main ends at \\(now())"
              }
            }
            """)
        #expect(run.lines == ["all gave at 0", "main ends at 5"])
        #expect(run.errors.joined().contains("boom"))
    }

    @Test func aWatcherEntryGivesItsTaskAtOnce() async {
        let run = await runSaga(
            """
            saga main {
              let ws = all [every "x" as a { log "got \\(a.type)" }]
              log "\\(len(ws)) watcher"
            }
            """, input: [#"{"type":"x"}"#])
        #expect(run.errors.isEmpty)
        #expect(run.lines == ["1 watcher", "got x"])
    }
}
