import Foundation
import SagaCore
import SagaRuntime
import SagaTestSupport
import Testing

/// Programs that would run for ever end with an error: a loop of calls that never wait meets
/// the step limit, and a run that only feeds itself meets the limit of turns on its own.
@Suite struct RunawayProgramTests {
    /// Calls that return without waiting count toward `--max-steps`, whether the function has
    /// one `return` or a body of statements, and whether it runs in the caller's task or, with
    /// a `try` or a `transaction`, in a task of its own.
    @Test(arguments: [
        "func f(x) { return x + 1 }",
        "func f(x) {\n  let y = x + 1\n  return y\n}",
        "func f(x) {\n  try { return x + 1 } finally { }\n}",
        "func f(x) {\n  transaction { let y = x }\n  return x + 1\n}",
    ])
    func aLoopOfCallsThatNeverWaitMeetsTheStepLimit(function: String) async {
        let source = """
            \(function)
            saga s {
              var i = 0
              try {
                loop { i = call f(i) }
              } catch e {
                log "\\(e.kind) after \\(i > 100) calls"
              }
            }
            """
        let run = await runConfigured(source) { $0.maxSteps = 1_000 }
        #expect(run.lines == ["RangeError after true calls"])
        #expect(run.status == .success)
    }

    /// Calls that fail at once count toward `--max-steps` too, in either kind of function.
    @Test(arguments: ["func f(x) { throw \"no\" }", "func f(x) {\n  try { throw \"no\" } finally { }\n}"])
    func aLoopOfCallsThatFailAtOnceMeetsTheStepLimit(function: String) async {
        let source = """
            \(function)
            saga s {
              var i = 0
              try {
                loop {
                  try { call f(i) } catch e {
                    if e.kind == "RangeError" { throw e }
                    i = i + 1
                  }
                }
              } catch e {
                log "\\(e.kind) after \\(i > 10) calls"
              }
            }
            """
        let run = await runConfigured(source) { $0.maxSteps = 1_000 }
        #expect(run.lines == ["RangeError after true calls"])
        #expect(run.status == .success)
    }

    /// A call that waits starts the count again: a long loop of them runs to its end under a
    /// small step limit, in either kind of function.
    @Test(arguments: ["delay 1ms", "try { delay 1ms } finally { }"])
    func callsThatWaitStartTheCountAgain(wait: String) async {
        let source = """
            func tick(x) {
              \(wait)
              return x + 1
            }
            saga s {
              var i = 0
              while i < 2000 { i = call tick(i) }
              log i
            }
            """
        let run = await runConfigured(source) {
            $0.maxSteps = 100
            $0.maxTurnsWithoutInput = 100_000
        }
        #expect(run.lines == ["2000"])
    }

    /// Programs that only feed themselves stop at the limit of turns on their own, with an
    /// error that names the flag.
    @Test(arguments: [
        "saga s {\n  every \"x\" as a { put \"x\" }\n  put \"x\"\n}",
        "saga s { loop { put \"x\" } }",
        "saga s { loop { fork { take \"never\" } } }",
        "saga s { loop { delay 1s } }",
    ])
    func aRunThatOnlyFeedsItselfStops(source: String) async {
        let run = await runConfigured(source) {
            $0.maxTurnsWithoutInput = 5_000
            $0.maxTasks = 1_000_000
        }
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.contains {
                $0.contains("the run took 5000 turns with no input, host answer or real-time wait")
                    && $0.contains("--max-turns-without-input")
            }, "\(run.errors)")
    }

    /// Input lines start the count again: a run of many more turns than the limit, each
    /// caused by its own input line, ends normally.
    @Test func inputStartsTheCountAgain() async {
        let source = """
            state { n: 0 }
            reduce "ping" as a { state.n = state.n + 1 }
            saga s {
              every "ping" as a { put "pong" }
            }
            """
        let run = await runConfigured(source, input: Array(repeating: #"{"type":"ping"}"#, count: 3_000)) {
            $0.maxTurnsWithoutInput = 100
        }
        #expect(run.status == .success)
        #expect(run.state == ["n": 3_000])
    }

    /// Past its memory budget the run stops, whether the memory goes to values or to tasks,
    /// and the error names the flag.
    @Test(arguments: [
        "saga s {\n  var xs = []\n  loop { xs = xs + [range(100000)] }\n}",
        "saga s { loop { fork { take \"x\" } } }",
        "saga s { all for i in range(5000000) { delay 1s } }",
    ])
    func aRunPastItsMemoryBudgetStops(source: String) async throws {
        let resident = try #require(residentMiB())
        let run = await runConfigured(source) {
            $0.maxMemory = (resident + 128) << 20
            $0.maxTasks = 100_000_000
        }
        #expect(run.status == .sagaFailed)
        #expect(
            run.errors.contains { $0.contains("MiB of memory; it was stopped; raise the limit with --max-memory") },
            "\(run.errors)")
    }
}
