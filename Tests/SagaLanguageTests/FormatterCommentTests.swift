import SagaCore
import Testing

@testable import SagaLanguage

/// `sagarun fmt` keeps every comment where it was: on its own line (re-indented) or after
/// code on the same line.
@Suite struct FormatterCommentTests {
    static func fmt(_ source: String) -> String { FormatterStyleTests.fmt(source) }

    /// A `// …` after `[` or `(` keeps its space, as after `{`; a `/* … */` there does not.
    @Test func aLineCommentAfterAnOpeningBracketKeepsItsSpace() {
        let source = "saga main {\n  let xs = [ // open\n    1, 2\n  ]\n  log xs\n  log [/* c */ 1]\n}\n"
        #expect(Self.fmt(source) == source)
    }

    @Test func commentsOnTheirOwnLinesAreReindented() {
        let source = """
            // The header.

            saga main {
            // first
                  log 1
                    /* a block
               comment */
              log 2
                // last
            }
            // The end.
            """
        #expect(
            Self.fmt(source) == """
                // The header.

                saga main {
                  // first
                  log 1
                  /* a block
                   comment */
                  log 2
                  // last
                }
                // The end.

                """)
    }

    @Test func commentsAfterCodeStayOnTheirLineOneSpaceAway() {
        #expect(Self.fmt("saga s {   // opens\n  log 1    // one   \n}") == "saga s { // opens\n  log 1 // one\n}\n")
        #expect(
            Self.fmt("state {\n  a: 1, // one\n  b: 2 /* two */,\n}")
                == "state {\n  a: 1, // one\n  b: 2 /* two */,\n}\n")
    }

    @Test func inlineBlockCommentsStayBetweenTheirTokens() {
        #expect(
            Self.fmt("saga /* c */ main/* d */{ log f(/* e */x)+/* f */1; log \"\\(x/* g */)\" }")
                == "saga /* c */ main /* d */ { log f(/* e */ x) + /* f */ 1; log \"\\(x /* g */)\" }\n")
    }

    @Test func aCommentBetweenABraceAndElseKeepsThemApart() {
        let source = "saga s {\n  if a { log 1 }\n  // otherwise\n  else { log 2 }\n}\n"
        #expect(Self.fmt(source) == source)
    }

    @Test func aCommentBeforeABlockBraceKeepsTheBraceOnItsOwnLine() {
        #expect(Self.fmt("saga s // why\n{ log 1 }") == "saga s // why\n{ log 1 }\n")
    }

    @Test func aMultiLineCommentEndsAStatementAndStaysAsWritten() {
        // The comment is a line break to the parser: two statements, kept on their lines.
        #expect(Self.fmt("saga s { log 1 /* a\n b */ log 2 }") == "saga s {\n  log 1 /* a\n b */ log 2\n}\n")
    }

    @Test func aFileOfCommentsOnly() {
        #expect(Self.fmt("/* only */") == "/* only */\n")
        #expect(Self.fmt("\n\n// a   \n\n\n// b\n") == "// a\n\n// b\n")
    }
}
