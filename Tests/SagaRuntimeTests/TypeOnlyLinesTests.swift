import SagaCore
import SagaLanguage
import Testing

@testable import SagaRuntime

/// Input lines spelled exactly `{"type":"T"}` skip the JSON reader (``TypeOnlyLines``): what
/// they give must be what the reader gives, and every other spelling must go to the reader.
@Suite struct TypeOnlyLinesTests {
    private func fastAction(_ line: String, _ lines: inout TypeOnlyLines) -> Value? {
        Array(line.utf8).withUnsafeBufferPointer { lines.action($0) }
    }

    @Test func aTypeOnlyLineGivesWhatTheReaderGives() throws {
        var lines = TypeOnlyLines()
        for line in [#"{"type":"ping"}"#, #"{"type":"a b/c*"}"#, #"{"type":""}"#, #"{"type":"ping"}"#] {
            let fast = fastAction(line, &lines)
            #expect(fast != nil, "\(line)")
            #expect(fast == (try JSONReader.parse(line)), "\(line)")
        }
    }

    @Test func anyOtherSpellingGoesToTheReader() {
        var lines = TypeOnlyLines()
        for line in [
            #"{"type": "ping"}"#, #" {"type":"ping"}"#, #"{"type":"ping"} "#, #"{"type":"p\"q"}"#,
            #"{"type":"p\\q"}"#, #"{"type":"é"}"#, "{\"type\":\"tab\there\"}", #"{"type":"x","n":1}"#,
            #"{"type":"x"}}"#, #"{"type":"x""#, #"{"type":"#, #"{"Type":"x"}"#, "", #"{"type":"x"} // no"#,
        ] {
            #expect(fastAction(line, &lines) == nil, "\(line)")
        }
    }

    @Test func theHeadIsTheBytesOfItsSpelling() {
        var word: UInt64 = 0
        for (i, byte) in #"{"type":"#.utf8.enumerated() { word |= UInt64(byte) << (8 * UInt64(i)) }
        #expect(word == TypeOnlyLines.head)
    }

    @Test func aLongTypeGoesToTheReader() {
        var lines = TypeOnlyLines()
        let longest = String(repeating: "t", count: TypeOnlyLines.maxTypeBytes)
        #expect(fastAction("{\"type\":\"\(longest)\"}", &lines) != nil)
        #expect(fastAction("{\"type\":\"\(longest)x\"}", &lines) == nil)
    }

    @Test func atMostSixteenTypesAreRemembered() {
        var lines = TypeOnlyLines()
        for n in 0..<TypeOnlyLines.maxTypes { #expect(fastAction(#"{"type":"t\#(n)"}"#, &lines) != nil) }
        #expect(fastAction(#"{"type":"one more"}"#, &lines) == nil)
        #expect(fastAction(#"{"type":"t3"}"#, &lines) == (try? JSONReader.parse(#"{"type":"t3"}"#)))
    }

    /// Through a run: the same transcript whichever way each line was read.
    @Test func aRunSeesTheSameActionsEitherWay() async {
        let source = """
            state { seen: [] }
            reduce "*" as a { state.seen = state.seen + [a.type] }
            saga main {
              every "*" as a { log "\\(a) \\(a.type == "ping")" }
            }
            """
        let input = [
            #"{"type":"ping"}"#, #"{"type": "ping"}"#, #"{"type":"pong","n":1}"#, #"{"type":"ping"}"#,
            #"{"type":"a b"}"#, #"{"at":5,"action":{"type":"late"}}"#, #"{"type":"pong"}"#,
        ]
        let run = await runConfigured(source, input: input)
        #expect(
            run.lines == [
                #"{"type":"ping"} true"#, #"{"type":"ping"} true"#, #"{"n":1,"type":"pong"} false"#,
                #"{"type":"ping"} true"#, #"{"type":"a b"} false"#, #"{"type":"late"} false"#,
                #"{"type":"pong"} false"#,
            ])
        #expect(run.state.member("seen")?.canonicalJSON == #"["ping","ping","pong","ping","a b","late","pong"]"#)
        #expect(run.errors == [])
    }

    /// Past the sixteen types remembered, lines go to the reader; an escaped type equals its
    /// plain spelling; DEL (0x7F) is not taken as printable.
    ///
    /// Every action prints the same.
    @Test func manyTypesEscapesAndTheEdgeOfPrintableRunAlike() async {
        var input = (0..<20).map { #"{"type":"t\#($0)"}"# }
        input += [#"{"type":"\u0061"}"#, #"{"type":"a"}"#, "{\"type\":\"x\u{7F}\"}", #"{"type":"t3"}"#]
        let source = """
            state { seen: 0 }
            reduce "*" as a { state.seen = state.seen + 1 }
            saga main { every "a" as a { log "a: \\(a == {type: "a"})" } }
            """
        guard let program = Frontend().compile(source: source, path: "test.saga").program else {
            Issue.record("does not compile")
            return
        }
        let output = BufferedOutput()
        let interpreter = Interpreter(
            program: program, options: .init(virtualTime: true, printActions: true), output: output)
        _ = await interpreter.run(input: InputSource(lines: input))
        let actions = output.lines.filter { !$0.hasPrefix("a: ") }
        let expected = input.map { line in (try? JSONReader.parse(line))?.canonicalJSON ?? "?" }
        #expect(actions.count == expected.count)
        for (printed, want) in zip(actions, expected) { #expect(printed.hasSuffix(want), "\(printed)") }
        #expect(output.lines.filter { $0.hasPrefix("a: ") } == ["a: true", "a: true"])
        #expect(interpreter.state.member("seen") == .int(24))
    }
}
