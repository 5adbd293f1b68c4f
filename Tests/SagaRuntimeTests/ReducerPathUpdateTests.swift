import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// `state.P = state.P op x` through a path of more than one step updates the value where it
/// lies.
///
/// In `state.byChannel[a.ch] = state.byChannel[a.ch] + [a.msg]`, for one, the list that `+`
/// extends is extended in place, where building a new one would make n appends take time in
/// n².
///
/// It must give what reading the value into a variable first and storing `old op x` gives,
/// errors included.
@Suite struct ReducerPathUpdateTests {
    /// The same reducer written both ways; the first line of each is the reducer's, so that
    /// their errors name the same place.
    static func bothForms(_ target: String, _ operand: String, state: String) -> (inPlace: String, copied: String) {
        let tail = """
              state.n = state.n + 1
              if a.fail { state.n = state.n + "x" }
            }
            saga main { loop { take "add"; let s = select state; log "\\(s)" } }
            """
        return (
            """
            state \(state)
            reduce "add" as a { state.\(target) = state.\(target) + \(operand)
            \(tail)
            """,
            """
            state \(state)
            reduce "add" as a { let old = state.\(target); state.\(target) = old + \(operand)
            \(tail)
            """
        )
    }

    /// Runs both forms, updated in place and copied, over the same input: they must agree.
    static func expectSame(
        _ target: String, _ operand: String, state: String, input: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async -> ConfiguredRun {
        let forms = bothForms(target, operand, state: state)
        let inPlace = await runReducers(forms.inPlace, input: input, sourceLocation: sourceLocation)
        let copied = await runReducers(forms.copied, input: input, sourceLocation: sourceLocation)
        #expect(inPlace == copied, sourceLocation: sourceLocation)
        return inPlace
    }

    @Test func listsInRecordsAndListsGrowWhereTheyAre() async {
        let input = [
            #"{"type":"add","ch":"a","m":1,"fail":false}"#, #"{"type":"add","ch":"b","m":2,"fail":true}"#,
            #"{"type":"add","ch":"a","m":3,"fail":false}"#, #"{"type":"add","ch":"zz","m":4,"fail":false}"#,
        ]
        let byChannel = await Self.expectSame(
            "by[a.ch]", "[a.m]", state: "{ by: { a: [], b: [0] }, n: 0 }", input: input)
        #expect(byChannel.state["by"] == ["a": [1, 3], "b": [0]])
        #expect(byChannel.errors.count == 2)  // the failing action, and null + list for "zz"
        let grid = await Self.expectSame("g[1]", "[a.m]", state: "{ g: [[0], [9]], n: 0 }", input: input)
        #expect(grid.state["g"] == [[0], [9, 1, 3, 4]])
        let text = await Self.expectSame("t.s", "a.ch", state: #"{ t: { s: "é" }, n: 0 }"#, input: input)
        #expect(text.state["t"] == ["s": "éaazz"])
    }

    /// What is not an extension in place goes the general way, with the same errors: numbers,
    /// a list plus a string, a missing step, a list index past the end, a value too deep for
    /// its place in the state.
    @Test func whatIsNotAnExtensionFailsOrSucceedsTheSameWay() async {
        let lines = [#"{"type":"add","i":0,"fail":false}"#, #"{"type":"add","i":5,"fail":false}"#]
        _ = await Self.expectSame("c.k", "1", state: "{ c: { k: 1 }, n: 0 }", input: lines)
        _ = await Self.expectSame("c.k", #""s""#, state: "{ c: { k: [1] }, n: 0 }", input: lines)
        _ = await Self.expectSame("c.missing.k", "[1]", state: "{ c: {}, n: 0 }", input: lines)
        _ = await Self.expectSame("l[a.i]", "[1]", state: "{ l: [[0]], n: 0 }", input: lines)
        let deep = String(repeating: "[", count: 510) + String(repeating: "]", count: 510)
        let deepLines = [#"{"type":"add","d":\#(deep),"fail":false}"#, #"{"type":"add","d":[[1]],"fail":false}"#]
        let outcome = await Self.expectSame("c.k", "[a.d]", state: "{ c: { k: [] }, n: 0 }", input: deepLines)
        #expect(outcome.errors.count == 1)
        #expect(outcome.state["c"] == ["k": [[[1]]]])
    }

    /// Extensions through paths, a replacement in between, and a failure: all rolled back.
    @Test func extensionsThroughPathsRollBack() async {
        let outcome = await runReducers(
            """
            state { by: { a: [1] }, t: { s: "x" } }
            reduce "bad" as a {
              state.by.a = state.by.a + [2]
              state.t.s = state.t.s + "y"
              state.by.a = state.by.a + [3]
              state.by = { a: [7] }
              state.by.a = state.by.a + [8]
              state.t.s = state.t.s + a.missing.deep
            }
            saga main { take "bad"; let s = select state; log "\\(s)" }
            """,
            input: [#"{"type":"bad"}"#])
        #expect(outcome.errors.count == 1)
        #expect(outcome.lines == [#"{"by":{"a":[1]},"t":{"s":"x"}}"#])
    }

    /// The list through the path is extended where it is.
    @Test func theListThroughThePathIsExtendedWhereItIs() throws {
        let source = """
            reduce "add" as a {
              state.by[a.ch] = state.by[a.ch] + [a.n]
              state.count = state.count + 1
            }
            """
        let runner = try reducerRunner(source)
        var state: Value = ["by": .record(Record([("a", roomyList([.int(0)]))])), "count": 0]
        let before = Self.bufferAddress(of: state)
        for n in 1...10 {
            runner.reduce(&state, ["type": "add", "ch": "a", "n": .int(n)])
            #expect(Self.bufferAddress(of: state) == before, "the list was copied at action \(n)")
        }
        #expect(state["by"] == ["a": .list((0...10).map { .int($0) })])
    }

    private static func bufferAddress(of state: Value) -> UnsafeRawPointer? {
        guard case .record(let by) = state["by"] else { return nil }
        return listBufferAddress(by["a"])
    }
}
