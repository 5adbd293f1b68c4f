import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// `sagarun fmt` never changes what a program does, is idempotent, keeps every comment, and
/// leaves a file that does not parse alone: checked on every example under `Sagas/` and on
/// snippets that lean on the parser's line and adjacency rules.
@Suite struct FormatterSafetyTests {
    static let sagasFolder: String = {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sagas").path
    }()

    /// Every `.saga` file under `Sagas/`, relative to that folder.
    static let examples: [String] = {
        let all = FileManager.default.enumerator(atPath: sagasFolder)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(".saga") }.sorted()
    }()

    /// Snippets where a careless formatter would change the program.
    static let snippets: [String] = [
        // Adjacency: call versus payload, index versus list payload, join built-in versus effect.
        "saga s {\n  let ch = channel\n  put ch (1)\n  put ch [1]\n  put ch(1)\n  log xs[0]\n}",
        "saga s { let t = fork { delay 1s }\n let a = join t\n let b = join(t)\n let c = join (t)\n log join([\"a\"], \",\") }",
        "saga s { log state[\"x\"]; let v = select state[\"x\"]; log it; log (xs)[0]; log {a: 1}[\"a\"] }",
        "saga s { log r.all[0]; log r.where -1; log r.in.x }",
        // The put payload must start on put's line; select, cancel and return likewise.
        "saga s {\n  put \"a\"\n  log 1\n  put \"a\" {x: 1}\n  put \"a\" {\n    x: 1\n  }\n  select\n  log 2\n  cancel\n  log 3\n  return\n}",
        // Nested interpolation, escapes, comments inside an interpolation.
        #"saga s { log "a \(f("x")) b \("in \(1 + 2) ner") c \(x /* c */) \u{1F600} \"" }"#,
        // `*` as a pattern and as a product.
        "reduce * as a { state.n = 2*3 }\nsaga s { throttle 1s * as a { log a }\n let a = take *\n take *\n log 2 * 3 }",
        // Newline rules: inside brackets, after operators, `}` newline `else`.
        "saga s {\n  let x = [1,\n2]\n  let y = (1\n+ 2)\n  let z = 1 +\n2\n  if x {\n  }\n  else {\n  }\n  log f(\n1,\n2\n)\n}",
        // Comments everywhere, `;`, blank lines.
        "// a\nsaga /* b */ s /* c */ { // d\n  log 1; /* e */ log 2 // f\n\n\n  /* g\n  h */\n} // i\n/* j */",
        // Dotted names, keywords as keys and members, race/all/retry, watchers.
        "func api.get(id) { return id }\nsaga s {\n  let u = call api.get(1)\n  let r = race { where: take \"a\", all: delay 1s }\n  let l = all [take \"a\",\n take \"b\"]\n  let m = all for x in [1, 2] { call api.get(x) }\n  retry 3 backoff 10ms call api.get(2)\n  every \"a\" as a {\n    log a.where\n  }\n}",
        // Blocks written with the brace on the next line.
        "saga s\n{\n  loop\n  {\n    break\n  }\n  transaction\n  { compensate\n { log 1 } }\n}",
        "",
        "// only a comment",
    ]

    /// The syntax tree as S-expressions, or nil if the text does not parse.
    static func tree(_ source: String) -> String? {
        let (unit, diagnostics) = Parser.parse(SourceFile(path: "t.saga", text: source), fileIndex: 0)
        return diagnostics.isEmpty ? ASTDump().render(unit) : nil
    }

    /// The comments of a text, in order, without trailing white space.
    static func comments(_ source: String) -> [String] {
        guard let (tokens, trailing) = TokenScanner.scan(source) else { return ["(unscannable)"] }
        let trivia = tokens.flatMap(\.leading) + trailing
        return trivia.compactMap { item -> String? in
            guard case .comment(let text, _) = item else { return nil }
            return text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed()) }
                .joined(separator: "\n")
        }
    }

    /// The same text with every run of white space between tokens replaced by `gap` (which
    /// must not be empty) and every indentation by `indent`, keeping touching tokens touching
    /// and line breaks where they were: the same program, laid out differently.
    static func respaced(_ source: String, gap: String, indent: String) -> String {
        guard let (tokens, trailing) = TokenScanner.scan(source) else { return source }
        var out = ""
        func emit(_ trivia: [FormatToken.Trivia]) {
            for item in trivia {
                switch item {
                case .newlines(let n): out += String(repeating: "\n" + indent, count: n)
                case .comment(let text, _): out += gap + text + gap
                }
            }
        }
        for token in tokens {
            if !token.touchesPrevious, token.leading.isEmpty { out += gap }
            emit(token.leading)
            out += token.text
        }
        emit(trailing)
        return out
    }

    /// Formatting keeps the program, is idempotent and keeps the comments.
    static func checkSafe(_ source: String, _ name: String) {
        guard case .success(let once) = SagaFormatter.format(source) else {
            Issue.record("\(name): did not format")
            return
        }
        #expect(tree(once) == tree(source), "\(name): the program changed:\n\(once)")
        #expect(SagaFormatter.format(once) == .success(once), "\(name): not idempotent:\n\(once)")
        #expect(comments(once) == comments(source), "\(name): comments changed")
    }

    @Test func theExamplesAreThere() {
        #expect(Self.examples.count >= 60)
    }

    @Test(arguments: examples)
    func everyExampleKeepsItsProgramAndCommentsAndIsAFixedPoint(_ path: String) throws {
        let source = try String(contentsOfFile: Self.sagasFolder + "/" + path, encoding: .utf8)
        Self.checkSafe(source, path)
    }

    @Test(arguments: snippets.indices)
    func trickySnippetsKeepTheirProgram(_ index: Int) {
        Self.checkSafe(Self.snippets[index], "snippet \(index)")
    }

    /// However the white space between tokens was laid out, the canonical text is the same.
    @Test(arguments: examples)
    func theCanonicalTextDoesNotDependOnTheOriginalSpacing(_ path: String) throws {
        let source = try String(contentsOfFile: Self.sagasFolder + "/" + path, encoding: .utf8)
        let canonical = SagaFormatter.format(source)
        for (gap, indent) in [("   ", ""), ("\t", "        "), (" \t ", " ")] {
            let variant = Self.respaced(source, gap: gap, indent: indent)
            #expect(Self.tree(variant) == Self.tree(source), "\(path): the respaced variant is not the same program")
            #expect(SagaFormatter.format(variant) == canonical, "\(path) respaced with \(gap.debugDescription)")
        }
    }

    @Test func aFileThatDoesNotParseIsAnErrorWithItsDiagnostics() {
        guard case .failure(let error) = SagaFormatter.format("saga s {\n  log (1\n}\n") else {
            Issue.record("a broken file was formatted")
            return
        }
        #expect(error.code == .invalidSource)
        #expect(!error.diagnostics.isEmpty)
        #expect(error.diagnostics.first?.location.line == 3)  // the `}` where `)` was expected
        if case .failure(let lexical) = SagaFormatter.format("saga s { log \"open }") {
            #expect(lexical.code == .invalidSource)
        } else {
            Issue.record("an unterminated string was formatted")
        }
    }

    @Test func theFormatterIsLinearOnALargeFile() {
        let body = (0..<5_000).map { "  let x\($0) = { a: [\($0), \"s\"], b: f\($0)(1) } // c" }.joined(separator: "\n")
        let source = "saga s {\n" + body + "\n}\n"
        guard case .success(let text) = SagaFormatter.format(source) else {
            Issue.record("did not format")
            return
        }
        #expect(text == source)
    }
}
