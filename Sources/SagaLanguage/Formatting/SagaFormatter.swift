import SagaCore

/// The canonical formatter of `.saga` files (`sagarun fmt`).
///
/// A token-based pretty printer: it re-lexes the source keeping comments and line breaks,
/// and prints the tokens again exactly as written (strings, numbers and durations are never
/// re-spelled) with canonical spacing and indentation. The style:
///
/// - Two spaces of indentation per open bracket (`{`, `[`, `(`) — counted once per line, so
///   `f([` opens one level — plus one for a line that continues after a binary operator.
///   A line that starts with a closing bracket is indented like the line that opened it.
/// - The user's line breaks are kept, except that a block's `{` joins the line of what opens
///   it, `} else`, `} catch` and `} finally` share a line, and a block that spans lines gets
///   a line break after its `{` and before its `}`. A block written on one line
///   (`every "a" as a { log a }`) stays on one line; records, lists and parentheses keep
///   their line breaks as written. Empty brackets close up: `{}`, `[]`, `()`.
/// - At most one blank line in a row; none at the start of the file, after an opening
///   bracket or before a closing one. One line break ends the file; no line ends in spaces.
/// - One space around binary operators, after `,`, `:` and `;`, and inside braces
///   (`{ by: req.by }`, `{}`); none inside `[ ]` and `( )`, around `.`, after a unary `-`
///   or `!`, or inside `\( )` of an interpolation.
/// - A `(` or `[` after a name or a closing bracket touches it if it touched it before: the
///   parser reads `len(x)` as a call and `xs[0]` as an index, but `put ch (x)` and
///   `put ch [1]` as a payload, so that choice is the author's. The `(` after the function
///   name of `call`, `fork`, `spawn` and `func` always touches.
/// - Comments stay where they were: on their own line (re-indented) or after code on the
///   same line, one space away. The lines of a multi-line `/* */` after its first keep their
///   text as written. `;`-separated statements stay on one line; a `;` that separates
///   nothing (before a `}` or at the end of a line) is dropped.
///
/// The formatter never changes what a program does: it parses its own output and compares
/// the syntax tree with the input's (``ASTDump``); if they differ it returns an error and
/// the caller leaves the file alone. It is idempotent: formatting its output changes nothing.
///
/// ```swift
/// switch SagaFormatter.format("saga main{log 1+2}") {
/// case .success(let text): print(text, terminator: "")   // "saga main { log 1 + 2 }\n"
/// case .failure(let error): print(error.message)
/// }
/// ```
package enum SagaFormatter {
    /// The canonical form of a `.saga` source text.
    ///
    /// - Parameter source: the whole text of one file.
    /// - Returns: the formatted text (ending with one line break, or empty for a file with
    ///   nothing but white space), or a ``FormatError``: ``FormatError/Code/invalidSource``
    ///   with the diagnostics when the file does not parse (file index 0), or
    ///   ``FormatError/Code/wouldChangeProgram`` if formatting could not be done safely.
    /// - Complexity: O(n) in the length of the source: two parses and one pass.
    package static func format(_ source: String) -> Result<String, FormatError> {
        DeepStack.run { canonicalForm(of: source) }
    }

    /// ``format(_:)``'s work, on the thread it runs on.
    private static func canonicalForm(of source: String) -> Result<String, FormatError> {
        let (unit, diagnostics) = Parser.parse(SourceFile(path: "", text: source), fileIndex: 0)
        guard diagnostics.isEmpty else {
            let first = diagnostics.first.map { ": \($0.message)" } ?? ""
            return .failure(
                FormatError(
                    code: .invalidSource, message: "the file does not parse\(first)", diagnostics: diagnostics))
        }
        guard let (scanned, trailing) = TokenScanner.scan(source) else {
            return .failure(unsafe("the formatter could not follow the file's tokens"))
        }
        let tokens = withoutTrailingSemicolons(scanned)
        var printer = FormatPrinter(tokens: tokens, blockBraces: BlockBraces.locations(in: unit))
        let formatted = printer.render(trailing: trailing)
        let (again, newDiagnostics) = Parser.parse(SourceFile(path: "", text: formatted), fileIndex: 0)
        guard newDiagnostics.isEmpty, ASTDump().render(again) == ASTDump().render(unit) else {
            return .failure(unsafe("formatting would change the program"))
        }
        return .success(formatted)
    }

    /// The tokens without a `;` that separates nothing.
    ///
    /// That is one before a `}`, the end of its line or the end of the file
    /// (`fork { log "x"; }`, `log a; // a`). The trivia before a dropped `;` (a comment
    /// between a statement and its `;`) goes to the token after it.
    private static func withoutTrailingSemicolons(_ tokens: [FormatToken]) -> [FormatToken] {
        var kept: [FormatToken] = []
        kept.reserveCapacity(tokens.count)
        var carried: [FormatToken.Trivia] = []
        for (i, token) in tokens.enumerated() {
            var token = token
            if !carried.isEmpty {
                token.leading = carried + token.leading
                token.touchesPrevious = false
                carried = []
            }
            if token.kind == .semicolon {
                let next = i + 1 < tokens.count ? tokens[i + 1] : nil
                let lineEnds = next?.leading.contains { if case .newlines = $0 { true } else { false } } ?? true
                if lineEnds || next?.kind == .rightBrace {
                    carried = token.leading
                    continue
                }
            }
            kept.append(token)
        }
        return kept
    }

    private static func unsafe(_ message: String) -> FormatError {
        FormatError(code: .wouldChangeProgram, message: "\(message); the file is left as it was (a formatter bug)")
    }
}
