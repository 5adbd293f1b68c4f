import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// A `call` of a simple function runs inline, in the caller's task.
///
/// That must not be observable: each program here runs twice, once with its functions as they
/// are (inlined) and once with each body wrapped in an empty `try { … } finally { }` on the
/// same lines (which keeps a function from being inlined), and both runs must print and fail
/// alike.
@Suite struct InlineCallTests {
    /// The two variants of `template`: `TRY` and `FIN` mark where the wrapper goes.
    private func variants(_ template: String) -> (inline: String, asTasks: String) {
        (
            template.replacingOccurrences(of: "TRY", with: "").replacingOccurrences(of: "FIN", with: ""),
            template.replacingOccurrences(of: "TRY", with: " try {").replacingOccurrences(
                of: "FIN", with: "} finally { }")
        )
    }

    private func expectSameRun(_ template: String, input: [String] = []) async {
        let (inline, asTasks) = variants(template)
        let a = await runSaga(inline, input: input)
        let b = await runSaga(asTasks, input: input)
        #expect(a.status != nil)
        #expect(a.lines == b.lines)
        #expect(a.errors == b.errors)
        #expect(a.status == b.status)
    }

    /// What could tell a frame from a task keeps a function a task of its own: a handler (a
    /// `try` or a `transaction`), `cancelled` (in a `take`'s condition too) and any task effect.
    @Test func onlyCodeThatCannotTellRunsInItsCallersTask() throws {
        func runsInCaller(_ body: String) throws -> Bool {
            let source = "func f(x) { \(body) }\nsaga main { call f(1) }"
            let program = try #require(Frontend().compile(source: source, path: "t.saga").program, "\(body)")
            let function = try #require(program.functions.first)
            return try #require(Code(sagaBody: function.body.statements, slotCount: 16)).runsInCallersTask
        }
        let inCaller = [
            "return x + 1", "put \"a\"; let b = take \"b\"; delay 1; return b", "let s = select state; log \"\\(s)\"",
            "var i = 0; while i < 3 { i = call f(i) }", "let c = channel; put c 1", "take \"b\" where it.n == x",
        ]
        for body in inCaller { #expect(try runsInCaller(body), "\(body)") }
        let ownTask = [
            "try { delay 1 } catch e { log \"e\" }", "try { delay 1 } finally { }", "transaction { put \"a\" }",
            "return cancelled", "if x > 0 { log \"\\(cancelled)\" }", "take \"b\" where cancelled", "fork { delay 1 }",
            "spawn { delay 1 }", "let t = fork { delay 1 }; join t", "let r = race { a: take \"a\", b: delay 1 }",
            "all [delay 1, delay 2]", "every \"a\" as a { log \"a\" }", "retry 2 delay 1 call f(1)",
        ]
        for body in ownTask { #expect(try !runsInCaller(body), "\(body)") }
    }

    @Test func resultsErrorsAndTheirStacksAreTheSame() async {
        await expectSameRun(
            """
            func inner(x) {TRY
              if x > 2 { throw "deep \\(x)" }
              let a = take "go"
              put "seen" { x: x }
              return x * 10
            FIN}
            func outer(x) {TRY
              let y = call inner(x)
              return y + 1
            FIN}
            saga main {
              var total = 0
              for i in range(5) {
                try {
                  let r = call outer(i)
                  total = total + r
                  log "r=\\(r)"
                } catch e { log "caught \\(e.message)" }
              }
              log "total \\(total)"
            }
            saga feeder { loop { put "go"; let s = take "seen"; log "seen \\(s.x)" } }
            saga bad { delay 1; call outer(7) }
            """)
    }

    /// A body that is one `return` is evaluated at the call, with no frame: its values, its
    /// failures and their stacks must be those of the function run as a task.
    @Test func aFunctionThatOnlyReturnsAValueBehavesAlike() async {
        await expectSameRun(
            """
            func twice(x) {TRY
              return x * 2
            FIN}
            func nothing() {TRY
              return
            FIN}
            func deep(o) {TRY
              return o.n.m
            FIN}
            func viaOther(x) {TRY
              let y = call twice(x)
              let z = call deep({n: y})
              return z
            FIN}
            saga main {
              var total = 0
              var last = 0
              for i in range(4) {
                let t = call twice(i)
                total = total + t
                last = call twice(last + 1)
                let n = call nothing()
                log "nothing: \\(n)"
                try {
                  let d = call deep({n: {m: i}})
                  log "deep: \\(d)"
                  let v = call viaOther(i)
                  log "never: \\(v)"
                } catch e { log "caught \\(e.message)" }
              }
              log "total \\(total) last \\(last)"
              last = call deep({n: 2})
            }
            """)
    }

    @Test func aResultThatCannotBeStoredFailsAlike() async {
        await expectSameRun(
            """
            func three() {TRY
              return 3
            FIN}
            saga main { var r = 1; r.x = call three() }
            """)
        // At the statement that called.
        let run = await runSaga("func three() { return 3 }\nsaga main { var r = 1; r.x = call three() }")
        #expect(run.errors.first?.contains("at saga main (test.saga:2:24)") == true)
    }

    @Test func endReturnsNullFromATakeInACalledFunction() async {
        await expectSameRun(
            """
            func waitFor(t) {TRY
              let a = take t
              return a
            FIN}
            saga main { let v = call waitFor("x"); log "got \\(v)"; let w = call waitFor("y"); log "then \\(w)" }
            """, input: [#"{"type":"x","n":1}"#])
    }

    @Test func cancellingACallerStopsTheFunctionItRuns() async {
        await expectSameRun(
            """
            func slowly() {TRY
              delay 100
              log "never"
            FIN}
            saga main {
              let t = fork { try { call slowly() } finally { log "finally cancelled=\\(cancelled)" } }
              delay 5
              cancel t
              log "cancelled it"
            }
            """)
    }

    @Test func aFailingSiblingAbortsACallerInTheMiddleOfAFunction() async {
        await expectSameRun(
            """
            func slowly() {TRY
              delay 100
              log "never"
            FIN}
            saga main {
              try {
                fork { delay 5; throw "sibling failed" }
                call slowly()
              } finally { log "finally cancelled=\\(cancelled)" }
            }
            """)
    }

    @Test func deepRecursionFailsAlikeWithAtMost64Callers() async {
        let template = """
            func f(n) {TRY
              let x = call f(n + 1)
              return x
            FIN}
            saga main { call f(0) }
            """
        let (inline, asTasks) = variants(template)
        var reports: [String] = []
        for source in [inline, asTasks] {
            guard let program = Frontend().compile(source: source, path: "r.saga").program else {
                Issue.record("does not compile")
                return
            }
            var options = Interpreter.Options(virtualTime: true)
            options.maxCallDepth = 1_000
            let output = BufferedOutput()
            #expect(await Interpreter(program: program, options: options, output: output).run() == .sagaFailed)
            reports.append(output.errors.first ?? "")
        }
        #expect(reports[0] == reports[1])
        #expect(reports[0].contains("calls nest more than 1000 deep"))
        #expect(reports[0].split(separator: "\n").count <= 67)
    }

    /// Injected failures number every call, whichever way it runs: a value function's call
    /// into a variable (`let x = call f()`, `x = call f()`) counts once, as a task's does.
    @Test func injectedFailuresCountValueCallsAlike() async {
        let template = """
            func twice(x) {TRY
              return x * 2
            FIN}
            func deep(o) {TRY
              return o.n.m
            FIN}
            saga main {
              var a = 1
              for i in range(3) {
                let b = call twice(a)
                a = call twice(b)
                try { a = call deep({n: a}) } catch e { log "caught \\(e.kind)" }
                call twice(i)
                log "a \\(a)"
              }
            }
            """
        let (inline, asTasks) = variants(template)
        for failing in 0..<12 {
            var outcomes: [ConfiguredRun] = []
            for source in [inline, asTasks] {
                outcomes.append(await runConfigured(source) { $0.failingCall = failing })
            }
            #expect(outcomes[0] == outcomes[1], "failing call \(failing)")
            let report = outcomes[0].errors.joined() + outcomes[0].lines.joined()
            #expect(
                report.contains("InjectedFailure") || report.contains("injected failure"), "failing call \(failing)")
        }
    }

    /// A value function called past the call-depth limit fails as any call does there, and a
    /// call whose argument fails takes no number from failure injection.
    @Test func valueCallsAtTheDepthLimitAndWithFailingArguments() async {
        let deep = """
            func leaf() {TRY
              return 1
            FIN}
            func down(n) {TRY
              if n > 2 { let r = call leaf(); return r }
              var r = 0
              r = call down(n + 1)
              return r
            FIN}
            saga main { try { let x = call down(0); log x } catch e { log e.message } }
            """
        let failing = """
            func twice(x) {TRY
              return x * 2
            FIN}
            saga main {
              try { let x = call twice(1 / "a") } catch e { log "argument: \\(e.message)" }
              let y = call twice(2)
              log y
            }
            """
        for (template, configure) in [
            (deep, { (o: inout Interpreter.Options) in o.maxCallDepth = 3 }),
            // 4: the call of `leaf`, a value function, is the one past the limit.
            (deep, { (o: inout Interpreter.Options) in o.maxCallDepth = 4 }),
            (deep, { (o: inout Interpreter.Options) in o.maxCallDepth = 5 }),
            (failing, { (o: inout Interpreter.Options) in o.failingCall = 0 }),
        ] {
            let (inline, asTasks) = variants(template)
            let a = await runConfigured(inline, configure)
            let b = await runConfigured(asTasks, configure)
            #expect(a == b)
        }
        let (inline, _) = variants(deep)
        let tooDeep = await runConfigured(inline) { $0.maxCallDepth = 3 }
        #expect(tooDeep.lines.first?.contains("calls nest more than 3") == true)
        #expect(await runConfigured(inline) { $0.maxCallDepth = 5 }.lines == ["1"])
        let (failingInline, _) = variants(failing)
        let run = await runConfigured(failingInline) { $0.failingCall = 0 }
        #expect(run.lines.first?.hasPrefix("argument: ") == true)
        #expect(run.errors.joined().contains("injected failure of call #1 (twice"))
    }
}
