import SagaCore
import Testing

@testable import SagaLanguage

/// Lexes text for the lexer tests.
enum LexFixture {
    static func lex(_ text: String) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        Lexer.tokenize(SourceFile(path: "t.saga", text: text), fileIndex: 0)
    }

    /// The kinds, without the trailing newline + EOF.
    static func kinds(_ text: String) -> [TokenKind] {
        var kinds = lex(text).tokens.map(\.kind)
        if kinds.last == .eof { kinds.removeLast() }
        if kinds.last == .newline { kinds.removeLast() }
        return kinds
    }

    /// The value of the single number token of `text`.
    static func number(_ text: String) -> Value? {
        let (tokens, _) = lex(text)
        guard let first = tokens.first, first.kind == .number, case .number(let v) = first.payload else { return nil }
        return v
    }

    static func messages(_ text: String) -> [String] {
        lex(text).diagnostics.map { "\($0.location.line):\($0.location.column): \($0.message)" }
    }
}

@Suite struct LexerTests {
    @Test func identifiersAndEveryKeyword() {
        #expect(
            LexFixture.kinds("foo _bar x9 actionChannel cancelled cancel") == [
                .identifier, .identifier, .identifier, .kwActionChannel, .kwCancelled, .kwCancel,
            ])
        let keywords = """
            import state reduce saga func let var if else while loop for in break continue return try catch
            finally throw log transaction compensate every latest leading throttle debounce take put select
            call fork spawn join cancel cancelled delay race all retry backoff channel actionChannel buffer as
            where it true false null extern
            """
        let kinds = LexFixture.kinds(keywords).filter { $0 != .newline }
        #expect(kinds.count == 52)
        #expect(kinds.allSatisfy { $0.isKeyword })
        #expect(Set(kinds.map(\.rawValue)).count == 52)
        // Near-keywords stay identifiers.
        #expect(
            LexFixture.kinds("takes puts Saga alls i") == [
                .identifier, .identifier, .identifier, .identifier, .identifier,
            ])
    }

    @Test func theKeywordMatcherAgreesWithTheKeywordTable() {
        #expect(TokenKind.keywords.count == 52)
        for (word, kind) in TokenKind.keywords {
            #expect(LexFixture.kinds(word) == [kind], "\(word)")
            #expect(kind.text == word)
            // One letter more, one less, or the last one different: a keyword only if listed.
            for near in [word + "s", String(word.dropLast()), String(word.dropLast()) + "Z"] {
                let expected = TokenKind.keywords.first { $0.0 == near }?.1 ?? .identifier
                #expect(LexFixture.kinds(near) == [expected], "\(near)")
            }
        }
    }

    @Test func punctuationAndOperators() {
        #expect(
            LexFixture.kinds("( ) [ ] { } , : ; . = == != < <= > >= + - * / % && || ! ??") == [
                .leftParen, .rightParen, .leftBracket, .rightBracket, .leftBrace, .rightBrace, .comma, .colon,
                .semicolon, .dot, .assign, .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual, .plus,
                .minus, .star, .slash, .percent, .and, .or, .not, .coalesce,
            ])
        #expect(LexFixture.kinds("a<=b") == [.identifier, .lessEqual, .identifier])
    }

    @Test func numbers() {
        #expect(LexFixture.number("42") == .int(42))
        #expect(LexFixture.number("1_000") == .int(1000))
        #expect(LexFixture.number("2.5") == .double(2.5))
        #expect(LexFixture.number("1e3") == .double(1000))
        #expect(LexFixture.number("1.5e-3") == .double(0.0015))
        #expect(LexFixture.number("9223372036854775807") == .int(Int.max))
        // `1.foo` is the number 1, a dot and a name.
        #expect(LexFixture.kinds("1.foo") == [.number, .dot, .identifier])
    }

    @Test func integerOverflowIsAnError() {
        #expect(
            LexFixture.messages("9223372036854775808") == [
                "1:1: integer literal '9223372036854775808' overflows a 64-bit integer"
            ])
        #expect(LexFixture.messages("1e999") == ["1:1: number literal '1e999' is out of range"])
    }

    @Test func durationsAreWholeMilliseconds() {
        #expect(LexFixture.number("100ms") == .int(100))
        #expect(LexFixture.number("2s") == .int(2000))
        #expect(LexFixture.number("1.5s") == .int(1500))
        #expect(LexFixture.number("1.1s") == .int(1100))
        #expect(LexFixture.number("3m") == .int(180_000))
        #expect(LexFixture.number("1h") == .int(3_600_000))
        #expect(LexFixture.number("0.25h") == .int(900_000))
        #expect(LexFixture.number("1_500ms") == .int(1500))
        #expect(LexFixture.number("1e3ms") == .int(1000))
        #expect(LexFixture.number("1.500s") == .int(1500))
        #expect(
            LexFixture.messages("1.0005s") == [
                "1:1: duration '1.0005s' is not a whole number of milliseconds"
            ])
        #expect(
            LexFixture.messages("5min") == [
                "1:2: invalid suffix 'min' on number literal (durations use ms, s, m or h)"
            ])
        #expect(LexFixture.messages("9999999999999999h").first?.contains("overflows") == true)
    }

    @Test func stringsAndEscapes() {
        let (tokens, diagnostics) = LexFixture.lex(#""a\n\t\r\"\\ \u{1F600} é""#)
        #expect(diagnostics.isEmpty)
        #expect(tokens[0].kind == .string)
        #expect(tokens[0].text == "a\n\t\r\"\\ 😀 é")
    }

    @Test func badEscapesAreReportedAndTheStringGoesOn() {
        let (tokens, diagnostics) = LexFixture.lex(#""a\qb" x"#)
        #expect(diagnostics.map(\.message) == [#"invalid escape sequence '\q' in string literal"#])
        #expect(diagnostics.first?.location.column == 3)
        #expect(tokens[0].text == "ab")
        #expect(tokens[1].kind == .identifier)
        #expect(LexFixture.messages(#""\u{110000}""#) == [#"1:2: invalid unicode scalar in '\u{…}' escape"#])
        #expect(LexFixture.messages(#""\u{41""#).count == 1)
    }

    @Test func interpolationSplitsTheString() {
        #expect(
            LexFixture.kinds(#""a \(x) b \(y + 1) c""#) == [
                .stringHead, .identifier, .stringMiddle, .identifier, .plus, .number, .stringTail,
            ])
        // Nested parentheses and nested strings inside an interpolation.
        let (tokens, diagnostics) = LexFixture.lex(#""a \(f("x)")) b""#)
        #expect(diagnostics.isEmpty)
        #expect(
            tokens.map(\.kind).dropLast(2) == [
                .stringHead, .identifier, .leftParen, .string, .rightParen, .stringTail,
            ])
        #expect(tokens[0].text == "a ")
        #expect(tokens[3].text == "x)")
        #expect(tokens[5].text == " b")
        // A string inside an interpolation inside a string.
        #expect(
            LexFixture.kinds(#""\("in \(x)")""#) == [
                .stringHead, .stringHead, .identifier, .stringTail, .stringTail,
            ])
    }

    @Test func unterminatedStringsAndCommentsAreReported() {
        #expect(LexFixture.messages("let s = \"abc\nlog 1") == ["1:9: unterminated string literal"])
        // The next line still lexes.
        #expect(LexFixture.kinds("\"abc\nlog 1") == [.string, .error, .newline, .kwLog, .number])
        #expect(LexFixture.messages("x \"a \\(b") == ["1:3: unterminated string literal: the '\\(' at 1:6 has no ')'"])
        #expect(LexFixture.messages("x /* a /* b */") == ["1:3: unterminated block comment"])
    }

    @Test func commentsAreSkippedAndNest() {
        #expect(LexFixture.kinds("a // b c\nd") == [.identifier, .newline, .identifier])
        #expect(LexFixture.kinds("a /* b /* c */ d */ e") == [.identifier, .identifier])
        // A comment spanning lines ends the statement as a line break does.
        #expect(LexFixture.kinds("a /* \n */ e") == [.identifier, .newline, .identifier])
    }

    @Test func newlinesCollapseIntoOneToken() {
        #expect(LexFixture.kinds("a\n\n\n  // c\n\nb") == [.identifier, .newline, .identifier])
        #expect(LexFixture.kinds("\n\na") == [.identifier])
        #expect(LexFixture.kinds("a\r\nb") == [.identifier, .newline, .identifier])
    }

    @Test func locationsCountUnicodeScalars() {
        let (tokens, _) = LexFixture.lex("let s = \"é😀\" + x\n  y")
        let x = tokens.first { $0.text == "x" }
        #expect(x?.line == 1)
        #expect(x?.column == 16)
        let y = tokens.first { $0.text == "y" }
        #expect(y?.line == 2)
        #expect(y?.column == 3)
        let afterComment = LexFixture.lex("/* é */ z").tokens[0]
        #expect(afterComment.column == 9)
    }

    @Test func strayCharactersAreReportedOnce() {
        #expect(LexFixture.messages("a @ b") == ["1:3: unexpected character '@'"])
        #expect(LexFixture.kinds("a @ b") == [.identifier, .error, .identifier])
        #expect(LexFixture.messages("a & b") == ["1:3: unexpected character '&'; did you mean '&&'?"])
        #expect(
            LexFixture.messages("café") == [
                "1:4: unexpected character 'é'; names are written with ASCII letters, digits and '_'"
            ])
        #expect(LexFixture.messages("a → b") == ["1:3: unexpected character '→'"])
        #expect(LexFixture.messages("a\u{0}b") == ["1:2: unexpected character U+0"])
        // JavaScript's single quotes: one message, which shows the string in double quotes.
        #expect(
            LexFixture.messages("take('X')") == [
                "1:6: unexpected character '''; strings are written in double quotes: \"X\""
            ])
        #expect(LexFixture.kinds("take('X')") == [.kwTake, .leftParen, .error, .rightParen])
        #expect(
            LexFixture.messages("log 'x") == ["1:5: unexpected character '''; strings are written in double quotes"])
    }
}
