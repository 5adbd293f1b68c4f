import SagaCore
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
}
