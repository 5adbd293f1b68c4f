import SagaCore
import Testing

/// A `call` of a function whose body is one `return` is evaluated where the call is, in a
/// frame that each call of that function fills with its arguments and empties again: every
/// call sees its own arguments, whichever way the one before it ended.
@Suite struct ValueCallFrameTests {
    @Test func eachCallSeesItsOwnArgumentsInLoopsAndStatements() async {
        let run = await runSaga(
            """
            func pair(a, b) { return [a, b] }
            func none() { return "n" }
            saga main {
              var xs = []
              var i = 0
              while i < 3 {
                let n = call none()
                let p = call pair(i, "x\\(i)" + n)
                xs = xs + [p]
                i = i + 1
              }
              let q = call pair(xs, null)
              log q
              let r = call none()
              let s = call pair(1, 2)
              log [r, s]
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines == [#"[[[0,"x0n"],[1,"x1n"],[2,"x2n"]],null]"#, #"["n",[1,2]]"#])
    }

    @Test func callsAfterAFailedArgumentOrAFailedValueSeeTheirOwnArguments() async {
        let run = await runSaga(
            """
            func half(n) { return n.value / 2 }
            saga main {
              let bad = { }
              try { let x = call half(bad.missing.deeper) } catch e { log "argument: \\(e.message)" }
              try { let y = call half("text") } catch e { log "value: \\(e.message)" }
              var i = 0
              var total = 0
              while i < 4 {
                let h = call half({ value: i * 2 })
                total = total + h
                i = i + 1
              }
              log total
            }
            """)
        #expect(run.errors == [])
        #expect(run.lines.count == 3)
        #expect(run.lines.first?.hasPrefix("argument: ") == true)
        #expect(run.lines.dropFirst().first?.hasPrefix("value: ") == true)
        #expect(run.lines.last == "6")
    }

    @Test func aCallThatFailsByInjectionLeavesTheFrameForTheNext() async {
        let source = """
            func inc(n) { return n + 1 }
            saga main {
              var i = 0
              try { i = call inc(10) } catch e { log e.kind }
              i = call inc(i)
              i = call inc(i)
              log i
            }
            """
        let run = await runConfigured(source) { $0.failingCall = 0 }
        #expect(run.errors == [])
        #expect(run.lines == ["InjectedFailure", "2"])
    }
}
