import SagaCore
import SagaLanguage
import SagaRuntime
import Testing

/// The scheduler's promises that golden files cannot show at scale.
@Suite struct SchedulerTests {
    @Test func deepRecursionThroughCallDoesNotGrowTheMachineStack() async {
        let run = await runSaga(
            """
            func count(n) {
              if n == 0 { return 0 }
              let rest = call count(n - 1)
              return rest + 1
            }
            saga main { let n = call count(100000); log n }
            """)
        #expect(run.lines == ["100000"])
    }

    @Test func tenThousandWaitersWakeInTheOrderTheyBeganToWait() async {
        let run = await runSaga(
            """
            saga main {
              for i in range(10000) {
                fork { take "go"; if i % 2500 == 0 { log i } }
              }
            }
            """, input: [#"{"type":"go"}"#])
        #expect(run.lines == ["0", "2500", "5000", "7500"])
    }

    @Test func aLoopOfCallsRunsInConstantStack() async {
        let run = await runSaga(
            """
            func one() { return 1 }
            saga main {
              var total = 0
              for i in range(50000) { let x = call one(); total = total + x }
              log total
            }
            """)
        #expect(run.lines == ["50000"])
    }

    @Test func timestampsShowTheVirtualClock() async {
        let run = await runSaga(
            """
            saga main { delay 1500ms; log "a"; delay 1s; log "b" }
            """, timestamps: true)
        #expect(run.lines == ["@1500 a", "@2500 b"])
    }

    @Test func aLogOfSeveralLinesHasTheTimestampOnEach() async {
        let run = await runSaga(#"saga main { delay 5ms; log "one\ntwo" }"#, timestamps: true)
        #expect(run.lines.joined(separator: "\n") == "@5 one\n@5 two")
    }

    @Test func aMalformedInputLineEndsTheRunWithItsLineNumber() async {
        let run = await runSaga(
            """
            saga main { every "x" as a { log a.n } }
            """, input: [#"{"type":"x","n":1}"#, "", "{nope"])
        #expect(run.lines == ["1"])
        guard case .malformedInput? = run.status else {
            Issue.record("expected malformedInput, got \(String(describing: run.status))")
            return
        }
        #expect(run.errors.last?.hasPrefix("error: input line 3:") == true)
    }

    /// An error caught and thrown again, by `retry` after its last attempt or by a `catch`
    /// that rethrows it, is reported where it was first thrown.
    @Test func aRethrownErrorKeepsItsStack() async {
        let run = await runSaga(
            """
            func flaky(n) { throw "boom \\(n)" }
            func middle() {
              try { call flaky(2) } catch e { throw e }
            }
            saga retried { retry 2 call flaky(1) }
            saga rethrown { call middle() }
            """)
        #expect(
            run.errors == [
                "error: saga retried failed: boom 1\n    at func flaky (test.saga:1:17)\n"
                    + "    called by retry at test.saga:5:24\n    called by saga retried at test.saga:5:16",
                "error: saga rethrown failed: boom 2\n    at func flaky (test.saga:1:17)\n"
                    + "    called by func middle at test.saga:3:9\n    called by saga rethrown at test.saga:6:17",
            ])
    }

    /// A deep recursion's stack shows its innermost frames, then one line for those left out,
    /// then the root saga that started it all, in 64 lines.
    @Test(arguments: [2, 62, 63, 86, 500])
    func aDeepStackKeepsItsRoot(depth: Int) async {
        let run = await runSaga(
            """
            func down(n) { if n <= 1 { throw "bottom" }; let r = call down(n - 1); return r }
            saga deep { call down(\(depth)) }
            """)
        let lines = (run.errors.first ?? "").split(separator: "\n").dropFirst().map {
            $0.trimmingPrefix("    ")
        }
        #expect(lines.first == "at func down (test.saga:1:28)")
        #expect(lines.last == "called by saga deep at test.saga:2:13")
        // Each call is a frame: the innermost, `depth - 1` callers, the root.
        let frames = depth + 1
        #expect(lines.count == min(frames, 64), "\(lines)")
        if frames > 64 {
            #expect(lines[62] == "… \(frames - 63) more")
        } else {
            #expect(!lines.contains { $0.hasPrefix("…") })
        }
    }

    @Test func aFailedRootSagaIsReportedWithItsStackAndTheOthersGoOn() async {
        let run = await runSaga(
            """
            func boom() { throw "kaput" }
            saga bad { call boom() }
            saga good { delay 10ms; log "still here" }
            """)
        #expect(run.lines == ["still here"])
        #expect(run.status == .sagaFailed)
        let report = run.errors.first ?? ""
        #expect(report.hasPrefix("error: saga bad failed: kaput"))
        #expect(report.contains("at func boom (test.saga:1:15)"))
        #expect(report.contains("called by saga bad at test.saga:2:12"))
    }

    /// A spawned task that fails is reported as what it runs, which no one would take for a
    /// saga of that name: `spawned func NAME`, `spawned block`.
    @Test func aFailedSpawnedTaskIsReportedAsWhatItRuns() async {
        let run = await runConfigured(
            """
            func check() { throw "bad check" }
            saga main {
              spawn check()
              spawn { throw "bad block" }
              delay 10ms
              log "main goes on"
            }
            """, input: []
        ) { _ in }
        #expect(run.lines == ["main goes on"])
        #expect(run.errors.contains { $0.hasPrefix("error: spawned func check failed: bad check") }, "\(run.errors)")
        #expect(run.errors.contains { $0.hasPrefix("error: spawned block failed: bad block") }, "\(run.errors)")
    }

    @Test func realTimeRunsEndWhenNothingCanHappen() async {
        let run = await runSaga(
            """
            saga main { delay 0ms; log "woke" }
            """, virtualTime: false)
        #expect(run.lines == ["woke"])
        #expect(run.status == .success)
    }
}

/// An effect-free endless loop fails its task after `maxSteps` instead of hanging the program.
@Suite struct StepLimitTests {
    @Test func anEndlessLoopFailsItsTaskAndTheOthersGoOn() async {
        let source = """
            state { n: 0 }
            reduce "spin" as a { while true { } }
            saga spin { loop { } }
            saga other { put "spin"; log "still here" }
            """
        guard let program = Frontend().compile(source: source, path: "spin.saga").program else {
            Issue.record("does not compile")
            return
        }
        var options = Interpreter.Options(virtualTime: true)
        options.maxSteps = 10_000
        let output = BufferedOutput()
        let interpreter = Interpreter(program: program, options: options, output: output)
        #expect(await interpreter.run() == .sagaFailed)
        #expect(output.lines == ["still here"])
        #expect(interpreter.state == ["n": 0])
        #expect(output.errors.contains { $0.contains("saga spin failed: the task ran 10000 steps without waiting") })
        #expect(output.errors.contains { $0.contains("the reducer looped 10000 times") })
    }

    /// The error points into the loop, not at the saga's declaration.
    @Test func theErrorIsReportedInsideTheLoop() async {
        let run = await runConfigured(
            """
            saga main {
              var i = 0
              while true {
                i = i + 1
              }
            }
            """
        ) { $0.maxSteps = 1000 }
        #expect(run.status == .sagaFailed)
        #expect(run.errors.first?.contains("at saga main (test.saga:4:5)") == true, "\(run.errors)")
    }
}

/// A `take` pattern matches an action type byte for byte, as `==` compares strings in the
/// language (and JavaScript, code unit by code unit): "café" written with a combining accent
/// is another type.
@Suite struct PatternMatchingTests {
    @Test func anExactPatternMatchesTheSameBytesOnly() async {
        let source = """
            saga main {
              every "caf\\u{E9}" as a { log "precomposed \\(a.n)" }
              every "cafe\\u{301}" as a { log "decomposed \\(a.n)" }
              every "caf*" as a { log "glob \\(a.n)" }
            }
            """
        let run = await runSaga(
            source, input: [#"{"type":"caf\u00e9","n":1}"#, #"{"type":"cafe\u0301","n":2}"#])
        #expect(run.errors == [])
        #expect(run.lines == ["precomposed 1", "glob 1", "decomposed 2", "glob 2"])
    }
}
