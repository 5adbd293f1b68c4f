import SagaCore
import Testing

@testable import SagaLanguage

/// The canonical style of `sagarun fmt`, rule by rule: each test feeds a file written in
/// some other style and expects the one canonical text.
@Suite struct FormatterStyleTests {
    /// The formatted text, or the error's message prefixed with `error:`.
    static func fmt(_ source: String) -> String {
        switch SagaFormatter.format(source) {
        case .success(let text): return text
        case .failure(let error): return "error: \(error.message)"
        }
    }

    @Test func spacesGoAroundOperatorsAndAfterCommasAndInsideRecordBraces() {
        #expect(
            Self.fmt("saga main{let r={a:1,b:[1,2 ,3]}\nlog r.a+len( r.b )*2}") == """
                saga main {
                  let r = { a: 1, b: [1, 2, 3] }
                  log r.a + len(r.b) * 2
                }

                """)
    }

    /// A record, list or parenthesis whose first item starts a new line ends on a line of its
    /// own; one whose first item stays on its line keeps its closer where it is.
    @Test func aBracketOpenedByALineBreakClosesOnALineOfItsOwn() {
        #expect(
            Self.fmt("saga main {\n  put \"x\" {\n    a: 1 }\n  let r = [\n  1,\n  2]\n  log (\n1 + 2)\n  log r\n}\n")
                == """
                saga main {
                  put "x" {
                    a: 1
                  }
                  let r = [
                    1,
                    2
                  ]
                  log (
                    1 + 2
                  )
                  log r
                }

                """)
        #expect(
            Self.fmt("saga main {\n  let r = { a: 1,\n    b: 2 }\n  log r\n}\n") == """
                saga main {
                  let r = { a: 1,
                    b: 2 }
                  log r
                }

                """)
    }

    /// A `;` between statements stays, a comment after it too; one that separates nothing
    /// (before a `}` or at the end of a line) goes, and a comment before it stays with the
    /// statement.
    @Test func aSemicolonThatSeparatesNothingIsDropped() {
        #expect(Self.fmt("saga s { fork { log \"x\"; } }") == "saga s { fork { log \"x\" } }\n")
        #expect(
            Self.fmt("saga s {\n  log 1; log 2;\n  log 3; // three\n  log 4 /* four */;\n}\n") == """
                saga s {
                  log 1; log 2
                  log 3 // three
                  log 4 /* four */
                }

                """)
        #expect(Self.fmt("saga s { log 1 };") == "saga s { log 1 }\n")
        #expect(Self.fmt("saga s { log 1; /* two */ log 2 }") == "saga s { log 1; /* two */ log 2 }\n")
    }

    @Test func aOneLineBlockStaysOnOneLine() {
        #expect(
            Self.fmt("reduce \"add\" as a {state.n=state.n+a.by}")
                == "reduce \"add\" as a { state.n = state.n + a.by }\n")
        #expect(Self.fmt("saga s { fork { delay 10ms;log 1 } }") == "saga s { fork { delay 10ms; log 1 } }\n")
    }

    @Test func aBlockThatSpansLinesGetsItsStatementsOnLinesOfTheirOwn() {
        #expect(Self.fmt("saga s { log 1\n    log 2 }") == "saga s {\n  log 1\n  log 2\n}\n")
        #expect(Self.fmt("saga s\n{\nlog 1\n}") == "saga s {\n  log 1\n}\n")
    }

    @Test func elseCatchAndFinallyJoinTheClosingBrace() {
        let source = """
            saga s {
              if a { log 1 }
              else if b { log 2 }
              else { log 3 }
              try { log 1 }
              catch e { log e }
              finally { log 3 }
            }
            """
        #expect(
            Self.fmt(source) == """
                saga s {
                  if a { log 1 } else if b { log 2 } else { log 3 }
                  try { log 1 } catch e { log e } finally { log 3 }
                }

                """)
    }

    @Test func indentationIsTwoSpacesPerBracketOpenedOnALine() {
        let source = """
            saga s {
                    let r = {
            a: 1,
                      b: [
            1, 2
                 ]
            }
                call f({
              x: 1
                    })
            }
            """
        #expect(
            Self.fmt(source) == """
                saga s {
                  let r = {
                    a: 1,
                    b: [
                      1, 2
                    ]
                  }
                  call f({
                    x: 1
                  })
                }

                """)
    }

    @Test func aLineThatGoesOnAfterAnOperatorIsIndentedOnceMore() {
        #expect(
            Self.fmt("saga s {\nlet x = 1 +\n2 +\n3\nlog (a &&\nb)\n}") == """
                saga s {
                  let x = 1 +
                    2 +
                    3
                  log (a &&
                    b)
                }

                """)
    }

    @Test func recordsListsAndParenthesesKeepTheirLineBreaks() {
        let source = "saga s {\n  put \"a\" { id: 1,\n  title: \"x\" }\n  let xs = [1,\n2]\n}"
        #expect(Self.fmt(source) == "saga s {\n  put \"a\" { id: 1,\n    title: \"x\" }\n  let xs = [1,\n    2]\n}\n")
    }

    @Test func blankLinesShrinkToOneAndVanishAtTheEdgesOfBlocksAndFile() {
        let source = "\n\n\nsaga s {\n\n\n  log 1\n\n\n\n  log 2\n\n}\n\n\n\nsaga t { log 3 }\n\n\n"
        #expect(Self.fmt(source) == "saga s {\n  log 1\n\n  log 2\n}\n\nsaga t { log 3 }\n")
    }

    @Test func emptyBracketsCloseUp() {
        #expect(
            Self.fmt("saga s {\n}\nsaga t { loop {\n\n}\nlet r = {  }\nlet xs = [\n]\nlog now( ) }") == """
                saga s {}
                saga t {
                  loop {}
                  let r = {}
                  let xs = []
                  log now()
                }

                """)
    }

    @Test func unaryOperatorsTouchTheirOperand() {
        #expect(
            Self.fmt("saga s { log - 1; log ! true; log 1 - - 2; log [ - 1 ]; log r.all -1 }")
                == "saga s { log -1; log !true; log 1 - -2; log [-1]; log r.all - 1 }\n")
    }

    @Test func theStarPatternKeepsItsSpaces() {
        #expect(
            Self.fmt("reduce *   as a { state.n = 1 }\nsaga s { throttle 1s  *  as a { log a }\nlet a = take   *\n}")
                == "reduce * as a { state.n = 1 }\nsaga s {\n  throttle 1s * as a { log a }\n  let a = take *\n}\n")
    }

    @Test func calleeNamesTouchTheirArgumentsDottedNamesCloseUp() {
        #expect(
            Self.fmt("func api . get (id) { return id }\nsaga s { let u = call api . get (1)\nfork api.get (2) }")
                == """
                func api.get(id) { return id }
                saga s {
                  let u = call api.get(1)
                  fork api.get(2)
                }

                """)
    }

    @Test func aParenthesisOrBracketKeepsTouchingOrNotAsWritten() {
        // `put ch (1)` puts 1 into ch; `put ch(1)` would call a built-in named ch.
        let source =
            "saga s {\n  let ch = channel\n  put ch (1)\n  put ch [1]\n  log len(xs)\n  log xs[0]\n  let t = join (t)\n  log join(xs, \",\")\n}"
        #expect(Self.fmt(source) == source + "\n")
        #expect(
            Self.fmt("saga s { log ( len(xs) ) ; if (a) { log [ xs[0] ] } }")
                == "saga s { log (len(xs)); if (a) { log [xs[0]] } }\n")
    }

    @Test func stringsNumbersAndDurationsArePrintedExactlyAsWritten() {
        let source = #"saga s { log "a\u{41}\t\"q\" \(len("x\n")) \("in \(1+2)")" + 1_000 + 1.5e-3 + 1E3 + 1.5s + 2m }"#
        #expect(
            Self.fmt(source)
                == #"saga s { log "a\u{41}\t\"q\" \(len("x\n")) \("in \(1 + 2)")" + 1_000 + 1.5e-3 + 1E3 + 1.5s + 2m }"#
                + "\n")
    }

    @Test func keywordsAsRecordKeysAndMemberNames() {
        #expect(
            Self.fmt("saga s { let r = {where:1,all:2,\"k k\":3}\nlog r . where }") == """
                saga s {
                  let r = { where: 1, all: 2, "k k": 3 }
                  log r.where
                }

                """)
    }

    @Test func anEmptyFileStaysEmptyAndEveryOtherEndsWithOneLineBreak() {
        #expect(Self.fmt("") == "")
        #expect(Self.fmt("  \n\n \t\n") == "")
        #expect(Self.fmt("saga s { log 1 }") == "saga s { log 1 }\n")
        #expect(Self.fmt("saga s { log 1 }\r\n\r\n") == "saga s { log 1 }\n")
    }

    @Test func tabsAndCarriageReturnsBecomeCanonicalWhiteSpace() {
        #expect(Self.fmt("saga s {\r\n\tlog\t1\r\n}\r\n") == "saga s {\n  log 1\n}\n")
    }
}
