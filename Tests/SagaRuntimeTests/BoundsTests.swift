import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// A busy task yields only when asked to: by default it runs until it blocks (see “Tasks and
/// the order of events” in Sagas/README.md); with a step budget the others go first, and the
/// hard limit still ends it.
@Suite struct YieldBudgetTests {
    static let source = """
        saga spin { try { loop { } } catch e { log "spin stopped" } }
        saga other { put "x"; log "after put" }
        """

    @Test func byDefaultABusyTaskRunsUntilItIsStopped() async {
        let run = await runConfigured(Self.source) { $0.maxSteps = 10_000 }
        #expect(run.lines == ["spin stopped", "after put"])
    }

    @Test func withABudgetTheOthersAndTheirActionsGoFirst() async {
        let run = await runConfigured(Self.source) {
            $0.maxSteps = 10_000
            $0.yieldAfterSteps = 100
        }
        #expect(run.lines == ["after put", "spin stopped"])
        #expect(run.status == .success)
    }

    @Test func stepsBeforeEachYieldCountTowardTheHardLimit() async {
        let run = await runConfigured("saga spin { loop { } }") {
            $0.maxSteps = 1_000
            $0.yieldAfterSteps = 10
        }
        #expect(run.status == .sagaFailed)
        #expect(run.errors.contains { $0.contains("the task ran 1000 steps without waiting") })
    }
}

/// `--max-tasks`, `--max-buffer`, `--max-length`: each fails cleanly with a `RangeError`
/// that names its flag, and the program can catch it.
@Suite struct ResourceLimitTests {
    @Test func startingTooManyTasksFailsTheEffect() async {
        let source = """
            saga main {
              var started = 0
              try {
                for i in range(10) { fork { take "never" }; started = started + 1 }
              } catch e { log "\\(started): \\(e.message)" }
            }
            """
        let run = await runConfigured(source) { $0.maxTasks = 5 }
        #expect(run.lines == ["4: more than 5 tasks would be alive at once; raise the limit with --max-tasks"])
    }

    @Test func finishedTasksFreeTheirPlace() async {
        let source = """
            func one() { return 1 }
            saga main {
              var n = 0
              for i in range(100) {
                let x = call one()
                n = n + x
                let t = fork { delay 1 }
                join t
              }
              log n
            }
            """
        let run = await runConfigured(source) { $0.maxTasks = 3 }
        #expect(run.lines == ["100"])
    }

    @Test func anUnboundedChannelHoldsAtMostTheLimit() async {
        let source = """
            saga main {
              let c = channel
              let big = channel buffer 100
              let small = channel buffer 2
              for i in range(10) { put small i }
              log "small drops, as its buffer says"
              try { for i in range(10) { put c i } } catch e { log e.message }
              try { for i in range(10) { put big i } } catch e { log "big: \\(e.kind)" }
            }
            """
        let run = await runConfigured(source) { $0.maxBuffer = 3 }
        #expect(
            run.lines == [
                "small drops, as its buffer says",
                "a channel's buffer would hold more than 3 messages; raise the limit with --max-buffer",
                "big: RangeError",
            ])
    }

    /// JavaScript's `xs.length` fails, saying what gives a list's or a string's length.
    @Test func readingLengthOfAListSaysLen() async {
        let run = await runConfigured(
            #"saga main { let xs = [1, 2]; try { log xs.length } catch e { log e.message }; log "ab".size }"#,
            input: []
        ) { _ in }
        #expect(run.lines.first == "cannot read '.length' of a list; write len(x)")
        #expect(run.errors.first?.contains("cannot read '.size' of a string; write len(x)") == true)
    }

    @Test func aFullActionChannelIsReportedOnceAndFailsTheRun() async {
        let source = """
            saga main { let ch = actionChannel "x"; take "never" }
            """
        let run = await runConfigured(source, input: Array(repeating: #"{"type":"x"}"#, count: 5)) { $0.maxBuffer = 2 }
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors == [
                "error: a channel's buffer would hold more than 2 messages; raise the limit with --max-buffer "
                    + "(the actionChannel made at test.saga:1:22): 'x' and any more it queues are dropped"
            ])
    }

    @Test func doublingAStringOrAListFailsAtTheLimit() async {
        let source = """
            saga main {
              var s = "ab"
              try { loop { s = s + s } } catch e { log "\\(len(s)) \\(e.message)" }
              var xs = [1]
              try { loop { xs = xs + xs } } catch e { log "\\(len(xs)) \\(e.kind)" }
              var t = "abc"
              try { loop { t = "\\(t)\\(t)" } } catch e { log "\\(len(t)) \\(e.kind)" }
            }
            """
        let run = await runConfigured(source) { $0.maxLength = 1_000 }
        #expect(
            run.lines == [
                "512 a list or string would be longer than 1000 (elements or UTF-8 bytes); raise the limit with --max-length",
                "512 RangeError",
                "768 RangeError",
            ])
    }
}

/// A call of a function whose body is one `return` is evaluated with no frame, but it counts
/// toward `--yield-after` as the inline call does: its statement is one step and its `return`
/// another, and a call that does not wait does not start the count again.
@Suite struct ValueCallStepTests {
    @Test func aValueCallYieldsWhereAnInlineCallWould() async {
        let run = await runConfigured(
            """
            func inc(x) { return x + 1 }
            saga a { var n = 0
              while n < 4 { n = call inc(n); log "a \\(n)" } }
            saga b { var m = 0
              while m < 4 { m = m + 1; log "b \\(m)" } }
            """
        ) { $0.yieldAfterSteps = 3 }
        #expect(run.status == .success)
        #expect(run.lines == ["a 1", "b 1", "b 2", "a 2", "b 3", "a 3", "b 4", "a 4"])
    }
}
