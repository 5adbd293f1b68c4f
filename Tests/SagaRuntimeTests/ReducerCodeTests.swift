import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Reducers compiled into instructions (``Code``): what the common statements become, and
/// what running the code leaves behind.
@Suite struct ReducerCodeTests {
    /// The code of the program's first reducer.
    private func code(_ source: String) throws -> Code {
        let compiled = Frontend().compile(source: source, path: "t.saga")
        let program = try #require(compiled.program, "\(compiled.renderedDiagnostics)")
        let reducer = try #require(program.reducers.first)
        return Code(reducer: reducer.body.statements, slotCount: reducer.slotCount)
    }

    /// `state.K = state.K op …` updates the member where it is: a read only where the state
    /// is not a record, the operand, then the update.
    @Test func aFieldUpdatedFromTheActionIsUpdatedInPlace() throws {
        let c = try code(#"reduce "add" as a { state.count = state.count + a.by }"#)
        #expect(
            c.instructions == [
                .stateMemberUnlessRecord(key: 0, into: .temporary(0)),
                .member(.slot(0), key: 1, into: .temporary(1)),
                .updateStateMember(key: 0, .add, lhs: .temporary(0), rhs: .temporary(1)),
            ])
        #expect(c.keys == ["count", "by"])
        #expect(c.temporaryCount == 2)
        #expect(c.readsOnlyTheAction)
    }

    /// Only the same member on both sides, and an operator that evaluates both: the others
    /// stay a read, the operator and a store.
    @Test func otherAssignmentsOfAnOperatorAreNotUpdates() throws {
        for source in [
            #"reduce "a" as a { state.count = state.other + 1 }"#,
            #"reduce "a" as a { state.count = 1 + state.count }"#,
            #"reduce "a" as a { state.count = state.count ?? 0 }"#,
            #"reduce "a" as a { state.ok = state.ok && a.ok }"#,
        ] {
            let c = try code(source)
            #expect(!c.instructions.contains { if case .updateStateMember = $0 { true } else { false } }, "\(source)")
        }
    }

    /// `x = x + …` on a variable of the reducer is one instruction that adds where the
    /// variable is (`xs = xs + [a.v]` appends, rather than copy the list); `x = y + x`,
    /// `x = x - …` and `var x = …` are not.
    @Test func aVariableAddedToIsAddedToInPlace() throws {
        let c = try code(#"reduce "add" as a { var xs = []; xs = xs + [a.v] }"#)
        #expect(c.instructions.last == .addToSlot(slot: 1, .temporary(0)))
        #expect(!c.instructions.contains { if case .binary = $0 { true } else { false } })
        for source in [
            #"reduce "a" as a { var xs = [1]; xs = [2] + xs }"#,
            #"reduce "a" as a { var n = 1; n = n - 1 }"#,
            #"reduce "a" as a { var n = 1; var m = n + 1 }"#,
        ] {
            let c = try code(source)
            #expect(!c.instructions.contains { if case .addToSlot = $0 { true } else { false } }, "\(source)")
        }
    }

    /// `r.items = r.items + …` on a variable of the reducer is one update through the path,
    /// as `state.l.x = state.l.x + …` is.
    @Test func aPathOfAVariableAddedToIsUpdatedInPlace() throws {
        let c = try code(#"reduce "add" as a { var r = {items: []}; r.items = r.items + [a.v] }"#)
        #expect(
            c.instructions.contains { if case .updateSlotPath(slot: 1, _, .add, _, _) = $0 { true } else { false } })
        #expect(!c.instructions.contains { if case .setSlotPath = $0 { true } else { false } })
    }

    /// Logic, `??`, `!`, `-`, list and record literals and paths are instructions too, and
    /// nothing fails to compile.
    @Test func theExampleSagasReducerShapesAreInstructions() throws {
        let c = try code(
            """
            reduce "x" as a {
              state.flags = [a.x && a.y, a.x || a.y, a.m ?? 1, !a.b, -a.n]
              state.users[a.id].visits = (state.users[a.id].visits ?? 0) + 1
              state.meta.last = a.type
              var r = {}
              r.list = [a.n]
            }
            """)
        #expect(!c.instructions.contains { if case .fail = $0 { true } else { false } })
        #expect(c.paths.count == 3)
        let paths = c.instructions.filter {
            switch $0 {
            case .setStatePath, .setSlotPath: return true
            default: return false
            }
        }
        #expect(paths.count == 3)
        #expect(c.keys.contains("visits") && c.keys.contains("last") && c.keys.contains("list"))
    }

    /// A condition that compares is one instruction, for a loop and an `if` arm alike.
    @Test func aComparisonThatGuardsALoopOrAnArmIsOneInstruction() throws {
        let c = try code(
            #"reduce "x" as a { var i = 0; while i < a.k { i = i + 2 }; if i >= 4 { state.big = true } }"#)
        let compares = c.instructions.compactMap { instruction -> BinaryOperator? in
            if case .jumpUnlessCompare(let op, _, _, _) = instruction { return op }
            return nil
        }
        #expect(compares == [.less, .greaterEqual])
        #expect(!c.instructions.contains { if case .jumpUnless = $0 { true } else { false } })
    }

    /// A `while` loop whose condition compares two variables ends each turn with one
    /// instruction, the next turn's step and test, and turns and stops as often as before: its
    /// steps count toward the reducer's limit, one at each turn and one at the test that ends
    /// the loop.
    @Test func aLoopOverTwoVariablesEndsEachTurnWithItsNextStepAndTest() throws {
        let source = #"reduce "x" as a { var i = 0; let n = a.k; while i < n { i = i + 1 }; state.count = i }"#
        let c = try code(source)
        let backEdges = c.instructions.filter {
            if case .stepAndLoopIfCompare(.less, .slot, .slot, _) = $0 { true } else { false }
        }
        #expect(backEdges.count == 1)
        #expect(c.instructions.last.map { if case .setStateMember = $0 { true } else { false } } == true)

        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let output = BufferedOutput()
        let runner = ReducerRunner(program: program, output: output)
        runner.vm.maxSteps = 4
        var state: Value = ["count": 0]
        runner.reduce(&state, ["type": "x", "k": 3])
        #expect(state == ["count": 3])
        #expect(output.errors.isEmpty)
        runner.reduce(&state, ["type": "x", "k": 4])
        #expect(state == ["count": 3])
        #expect(output.errors.count == 1)
        #expect(output.errors.first?.contains("the reducer looped 4 times") == true)
        runner.reduce(&state, ["type": "x", "k": 0])
        #expect(state == ["count": 0])
    }

    /// Integers are compared and added where they lie; strings compare as strings; an
    /// overflow and a comparison of a string with a number fail the reducer, whose changes are
    /// rolled back.
    @Test func integersStringsAndFailuresInComparisonsAndArithmetic() throws {
        let runner = try reducerRunner(
            """
            reduce "x" as a {
              state.big = a.n + 1
              if a.name < "m" { state.early = true }
              var i = 0
              while i < a.k { i = i + 2 }
              state.count = i
              if a.name < a.other { state.compared = true }
            }
            """)
        var state: Value = ["count": 0]
        runner.reduce(&state, ["type": "x", "n": 1, "name": "alice", "k": 5, "other": "bob"])
        #expect(state == ["big": 2, "early": true, "count": 6, "compared": true])

        let output = BufferedOutput()
        let failing = try #require(
            Frontend().compile(
                source: #"reduce "x" as a { state.count = 1; var i = a.n; i = i + 1; if a.name < 3 { state.no = 1 } }"#,
                path: "t.saga"
            ).program)
        let other = ReducerRunner(program: failing, output: output)
        var kept: Value = ["count": 0]
        other.reduce(&kept, ["type": "x", "n": .int(Int.max), "name": "alice"])
        other.reduce(&kept, ["type": "x", "n": 1, "name": "alice"])
        #expect(kept == ["count": 0])
        #expect(output.errors.count == 2)
        #expect(output.errors.first?.hasSuffix("integer overflow") == true)
        #expect(output.errors.last?.hasSuffix("cannot compare string and number") == true)
        #expect(other.temporariesAreNull)
    }

    /// The code itself, run without the interpreter: the field is updated, the action's
    /// variable read, and no temporary keeps a value.
    @Test func runningTheCodeUpdatesTheStateAndLeavesNoTemporary() throws {
        let c = try code(#"reduce "add" as a { state.count = state.count + a.by * 2 }"#)
        let vm = VM()
        let temporaries = UnsafeMutablePointer<Value>.allocate(capacity: c.temporaryCount)
        temporaries.initialize(repeating: .null, count: c.temporaryCount)
        defer {
            temporaries.deinitialize(count: c.temporaryCount)
            temporaries.deallocate()
        }
        var state: Value = ["count": 1, "other": "kept"]
        var slots: [Value] = [["type": "add", "by": 20]]
        var pc = 0
        var steps = CodeSteps(reducerRunIn: vm)
        let exit = try vm.run(
            c, &state, &slots, action: slots[0], temporaries, Evaluator(clock: nil), pc: &pc, steps: &steps)
        guard case .end = exit else {
            Issue.record("stopped before its end")
            return
        }
        #expect(state == ["count": 41, "other": "kept"])
        #expect((0..<c.temporaryCount).allSatisfy { temporaries[$0] == .null })
    }

    /// A failure in the middle of an expression leaves a temporary written and not yet read: the
    /// runner clears it, and the state is rolled back.
    @Test func aFailedRunLeavesNoTemporaryBehind() throws {
        let source = """
            state { items: [1, 2] }
            reduce "bad" as a { state.items = state.items + a.n.deep }
            reduce "ok" as a { state.items = state.items + [a.n] }
            """
        let program = try #require(Frontend().compile(source: source, path: "t.saga").program)
        let output = BufferedOutput()
        let runner = ReducerRunner(program: program, output: output)
        var state: Value = ["items": [1, 2]]
        runner.reduce(&state, ["type": "bad", "n": 3])
        #expect(runner.temporariesAreNull)
        #expect(output.errors.count == 1)
        #expect(output.errors.first?.contains("cannot read '.deep' of a") == true)
        runner.reduce(&state, ["type": "ok", "n": 3])
        #expect(runner.temporariesAreNull)
        #expect(state == ["items": [1, 2, 3]])
    }

    /// A program of sagas alone reduces nothing, and its store skips the runner; another
    /// reducer given beside it (the persistence reducer, say) still runs.
    @Test func onlyAProgramWithNoReducerAndNoOtherReducesNothing() throws {
        let program = try #require(Frontend().compile(source: #"saga main { put "x" }"#, path: "t.saga").program)
        #expect(ReducerRunner(program: program, output: BufferedOutput()).reducesNothing)

        let counting = ReducerRunner(program: program, output: BufferedOutput(), extra: [{ state, _ in state = 1 }])
        #expect(!counting.reducesNothing)
        var state: Value = 0
        counting.reduce(&state, ["type": "x"])
        #expect(state == 1)

        let own = try #require(Frontend().compile(source: #"reduce "x" as a { state = 2 }"#, path: "t.saga").program)
        let reducing = ReducerRunner(program: own, output: BufferedOutput())
        #expect(!reducing.reducesNothing)
        reducing.reduce(&state, ["type": "x"])
        #expect(state == 2)
    }

    /// Code that reads only the action runs with no variables array (the runner neither fills
    /// nor clears one); code with a variable of its own, or a `for`, has one.
    @Test func onlyCodeThatReadsNoVariableButTheActionRunsWithoutVariables() throws {
        #expect(try code(#"reduce "x" as a { state.count = state.count + a.by }"#).readsOnlyTheAction)
        #expect(try code(#"reduce "x" as a { state.items[a.i] = [a.n, {k: a.k}] }"#).readsOnlyTheAction)
        #expect(try code(#"reduce "x" as a { if a.n > 1 { state.big = a.n ?? 0 } }"#).readsOnlyTheAction)
        #expect(try !code("reduce \"x\" as a { let n = a.by\n state.count = n }").readsOnlyTheAction)
        #expect(try !code("reduce \"x\" as a { var r = {}\n r.k = a.k\n state.r = r }").readsOnlyTheAction)
        #expect(try !code("reduce \"x\" as a { let unread = a.n\n state.n = a.n }").readsOnlyTheAction)
        #expect(try !code(#"reduce "x" as a { for x in a.list { state.last = x } }"#).readsOnlyTheAction)
        // The action itself, not a member of it, is read from the variables.
        #expect(try !code(#"reduce "x" as a { state.last = a }"#).readsOnlyTheAction)
        #expect(try !code(#"reduce "x" as a { state.same = a == a }"#).readsOnlyTheAction)
    }

    /// Run through the store, a reducer that reads only the action and one with variables of
    /// its own, one after the other, each see the action.
    @Test func reducersWithAndWithoutVariablesBothSeeTheAction() async {
        let run = await runWithAndWithoutShortCuts(
            """
            state { a: 0, b: 0 }
            reduce "x" as a { state.a = state.a + a.n }
            reduce "x" as a { let twice = a.n * 2\n state.b = state.b + twice }
            reduce "x" as a { state.last = a }
            saga main { put "x" { n: 1 }; put "x" { n: 2 }; let s = select state; log s }
            """)
        #expect(run.lines == [#"{"a":3,"b":6,"last":{"n":2,"type":"x"}}"#])
    }
}
