import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Reducers lowered into instructions (``ReducerCode``): what the common statements become,
/// and that a lowered reducer does exactly what walking its statements does.
@Suite struct ReducerCodeTests {
    /// The lowered code of the program's first reducer.
    private func code(_ source: String) throws -> ReducerCode {
        let compiled = Frontend().compile(source: source, path: "t.saga")
        let program = try #require(compiled.program, "\(compiled.renderedDiagnostics)")
        let reducer = try #require(program.reducers.first)
        return ReducerCode(lowering: reducer.body.statements, slotCount: reducer.slotCount)
    }

    @Test func aFieldUpdatedFromTheActionIsFourInstructions() throws {
        let c = try code(#"reduce "add" as a { state.count = state.count + a.by }"#)
        #expect(
            c.instructions == [
                .stateMember(key: 0, into: .temporary(1)),
                .member(.slot(0), key: 1, into: .temporary(2)),
                .binary(.add, .temporary(1), .temporary(2), into: .temporary(0)),
                .setStateMember(key: 0, .temporary(0)),
            ])
        #expect(c.keys == ["count", "by"])
        #expect(c.temporaryCount == 3)
        #expect(c.statements.isEmpty && c.expressions.isEmpty)
    }
}

/// The same reducers lowered and walked: a run-step limit (never reached here) makes the
/// interpreter walk them, so each program runs both ways and the two runs must agree on
/// everything: what they print, the errors reported, the status and the final state.
@Suite struct LoweredReducerTests {
    @discardableResult
    private func expectSameBothWays(
        _ source: String, input: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> ConfiguredRun {
        let lowered = await runConfigured(source, input: input)
        let walked = await runConfigured(source, input: input) { $0.maxRunSteps = Int.max / 2 }
        #expect(lowered.status != nil, "does not compile", sourceLocation: sourceLocation)
        #expect(lowered == walked, sourceLocation: sourceLocation)
        return lowered
    }

    @Test func reducersRunLoweredUnlessARunStepLimitIsSet() throws {
        let program = try #require(Frontend().compile(source: #"reduce "a" as a { }"#, path: "t.saga").program)
        let output = BufferedOutput()
        #expect(Interpreter(program: program, options: .init(virtualTime: true), output: output).reducers.runsLowered)
        var limited = Interpreter.Options(virtualTime: true)
        limited.maxRunSteps = 1_000
        #expect(!Interpreter(program: program, options: limited, output: output).reducers.runsLowered)
    }

    @Test func arithmeticMembersAndVariables() async {
        let outcome = await expectSameBothWays(
            """
            state { count: 0, total: 0, last: null, name: "x", items: [] }
            reduce "add" as a {
              let d = a.by * 2
              var e = d
              e = e - 1
              state.count = state.count + a.by
              state.total = state.total + e
              state.last = a
              state.name = state.name + "!"
              state.items = state.items + [a.by]
              state.same = a.by == 2
              state.order = state.count >= 3
            }
            """,
            input: [#"{"type":"add","by":1}"#, #"{"type":"add","by":2}"#, #"{"type":"add","by":-4}"#])
        #expect(
            outcome.state.canonicalJSON
                == #"{"count":-1,"items":[1,2,-4],"last":{"by":-4,"type":"add"},"name":"x!!!","order":false,"same":false,"total":-5}"#
        )
    }

    @Test func conditionsReturnsAndWhatIsLeftToTheWalker() async {
        let outcome = await expectSameBothWays(
            """
            state { seen: 0, log: [] }
            reduce "n" as a {
              if a.n > 10 {
                state.size = "big"
                return
              } else if a.n == 5 {
                state.size = "five"
              } else {
                state.size = "small"
              }
              state.seen = (state.seen ?? 0) + 1
              if a.flag && a.n > 0 { state.both = true }
              var i = 0
              while i < a.n {
                i = i + 1
                if i == 3 { return }
                state.i = i
              }
              for k in range(2) { state.k = k }
              state.users[str(a.n)] = a.n
              state.deep.er = len(state.log)
              state.log = state.log + [a.n]
            }
            """,
            input: [
                #"{"type":"n","n":1,"flag":false}"#, #"{"type":"n","n":5,"flag":true}"#,
                #"{"type":"n","n":2,"flag":false}"#, #"{"type":"n","n":12}"#,
            ])
        #expect(
            outcome.state.canonicalJSON
                == #"{"both":true,"deep":{"er":1},"i":2,"k":1,"log":[1,2],"seen":3,"size":"big","users":{"1":1,"2":2}}"#
        )
    }

    @Test func aFailingReducerIsUndoneAndReportedTheSameWay() async {
        let outcome = await expectSameBothWays(
            """
            state { count: 1, items: [1], before: 0 }
            reduce "bad" as a {
              state.before = state.before + 1
              state.items = state.items + [a.n]
              if a.n == 1 { state.x = state.items + a.n.deep }
              if a.n == 2 { state.x = a.n * 9223372036854775807 }
              if a.n == 3 { if a.n { state.x = 1 } }
              if a.n == 4 { state.x = state.count.field }
              if a.n == 5 { state.count.field = 1 }
              state.after = a.n
            }
            reduce "*" as a { state.seen = (state.seen ?? 0) + 1 }
            saga main { loop { let a = take "bad"; let s = select state; log "\\(a.n): \\(s)" } }
            """,
            input: (1...6).map { #"{"type":"bad","n":\#($0)}"# })
        #expect(outcome.errors.count == 5)
        #expect(outcome.state["before"] == .int(1) && outcome.state["after"] == .int(6))
        #expect(outcome.state["seen"] == .int(6))
    }
}
