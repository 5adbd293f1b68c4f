// Re-emits a file's tokens and comments in the canonical layout: the user's line breaks
// (with a few safe normalisations), 2-space indentation by bracket depth, and canonical
// spaces between tokens on a line.

import SagaCore

/// Prints ``FormatToken``s back as canonical source text.
///
/// Line breaks are the user's, except that: a block's `{` joins the line of what opens it;
/// `else`, `catch` and `finally` join the `}` before them; a block that spans lines gets its
/// statements on lines of their own (a break after `{` and before `}`); a record, list or
/// parenthesis whose first item starts a new line ends on a line of its own; empty brackets close
/// up (`{}`, `[]`, `()`); blank lines shrink to one and vanish at the start of the file, after
/// an opening bracket and before a closing one. Every such change is one the parser already
/// accepts (it skips line breaks there), so the program stays the same.
struct FormatPrinter {
    let tokens: [FormatToken]
    /// For each bracket token, the index of its partner; -1 for other tokens.
    var partner: [Int]
    /// `true` for the `{` and `}` of statement blocks (as opposed to records, `race`, `all`).
    var isBlockBrace: [Bool]
    /// `true` for the `(` after a `call`/`fork`/`spawn`/`func` name, which may touch it.
    var isCalleeParen: [Bool]

    var out = ""
    /// Nothing is on the current output line yet (only true before the first item).
    var atLineStart = true
    /// The indentation level of the current output line.
    var lineIndent = 0
    /// For each open bracket, the indentation level and the number of the output line it
    /// was opened on, and whether its first token went on a later line (`nil` before that
    /// token): then its closer goes on a line of its own too.
    var openBrackets: [(indent: Int, line: Int, breaksAfter: Bool?)] = []
    /// The number of the current output line (counting from 0; blank lines not counted).
    var outputLine = 0
    /// The output line of the last token printed.
    var lastTokenLine = 0
    /// The index of the last token printed, or -1.
    var lastToken = -1
    /// The last item printed was a comment (not a token).
    var lastWasComment = false
    /// A block that spans lines was just opened: its first statement goes on a new line.
    var breakAfterOpener = false

    init(tokens: [FormatToken], blockBraces: Set<SourceLocation>) {
        self.tokens = tokens
        partner = Array(repeating: -1, count: tokens.count)
        isBlockBrace = Array(repeating: false, count: tokens.count)
        isCalleeParen = Array(repeating: false, count: tokens.count)
        var open: [Int] = []
        for (i, token) in tokens.enumerated() {
            switch token.kind {
            case .leftBrace, .leftParen, .leftBracket:
                open.append(i)
            case .rightBrace, .rightParen, .rightBracket:
                guard let opener = open.popLast() else { continue }
                partner[opener] = i
                partner[i] = opener
                if token.kind == .rightBrace {
                    let at = SourceLocation(file: 0, line: tokens[opener].line, column: tokens[opener].column)
                    if blockBraces.contains(at) {
                        isBlockBrace[opener] = true
                        isBlockBrace[i] = true
                    }
                }
            case .kwCall, .kwFork, .kwSpawn, .kwFunc:
                // Not after a dot: there the keyword is a member name (`r.call`).
                if i == 0 || tokens[i - 1].kind != .dot { markCalleeParen(after: i) }
            default:
                break
            }
        }
    }

    /// `call a.b.name(`: marks the `(` that ends the (possibly dotted) name after `keyword`.
    mutating func markCalleeParen(after keyword: Int) {
        var j = keyword + 1
        guard j < tokens.count, tokens[j].kind == .identifier else { return }
        j += 1
        while j + 1 < tokens.count, tokens[j].kind == .dot,
            tokens[j + 1].kind == .identifier || tokens[j + 1].kind.isKeyword
        {
            j += 2
        }
        if j < tokens.count, tokens[j].kind == .leftParen { isCalleeParen[j] = true }
    }

    /// The whole file, canonically laid out, ending with one line break (empty if the file
    /// holds nothing but white space).
    mutating func render(trailing: [FormatToken.Trivia]) -> String {
        for i in tokens.indices {
            let pending = emitTrivia(tokens[i].leading)
            emitToken(i, newlines: pending)
        }
        _ = emitTrivia(trailing)
        if !out.isEmpty { out += "\n" }
        return FormatPrinter.trimmingTrailingWhiteSpace(out)
    }

    /// Prints the comments of `trivia`; returns the line breaks after the last one.
    mutating func emitTrivia(_ trivia: [FormatToken.Trivia]) -> Int {
        var pending = 0
        for item in trivia {
            switch item {
            case .newlines(let n):
                pending += n
            case .comment(let text, let isLine):
                emitComment(text, isLine: isLine, newlines: pending)
                pending = 0
            }
        }
        return pending
    }

    mutating func emitComment(_ text: String, isLine: Bool, newlines: Int) {
        var newlines = newlines
        if breakAfterOpener {
            // A `// …` may stay on the line of `{`; anything else starts the block's lines.
            if !isLine { newlines = max(newlines, 1) }
            breakAfterOpener = false
        }
        // A `// …` keeps its space after `(` and `[` too: `[ // note`.
        let space =
            lastToken < 0 || lastWasComment || isLine || !FormatPrinter.takesNoSpaceAfter(tokens[lastToken].kind)
        startItem(newlines: newlines, closesBracket: false, space: space)
        if isLine {
            var trimmed = Substring(text)
            while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed.removeLast() }
            out += trimmed
        } else {
            out += text
        }
        lastWasComment = true
    }

    mutating func emitToken(_ i: Int, newlines: Int) {
        let token = tokens[i]
        let isCloser = token.kind == .rightBrace || token.kind == .rightParen || token.kind == .rightBracket
        var newlines = newlines
        if newlines > 0, !token.hasLeadingComment, joinsPreviousLine(i, isCloser: isCloser) {
            newlines = 0
        }
        if breakAfterOpener {
            newlines = max(newlines, 1)
            breakAfterOpener = false
        }
        if isCloser, partner[i] >= 0, isMultiLineBlock(partner[i]) || openBrackets.last?.breaksAfter == true {
            newlines = max(newlines, 1)
        }
        startItem(newlines: newlines, closesBracket: isCloser, space: needsSpace(before: i))
        if !isCloser, let open = openBrackets.last, open.breaksAfter == nil {
            openBrackets[openBrackets.count - 1].breaksAfter = outputLine != open.line
        }
        out += token.text
        switch token.kind {
        case .leftBrace, .leftParen, .leftBracket:
            openBrackets.append((lineIndent, outputLine, nil))
            breakAfterOpener = isMultiLineBlock(i)
        case .rightBrace, .rightParen, .rightBracket:
            _ = openBrackets.popLast()
        default:
            break
        }
        lastToken = i
        lastTokenLine = outputLine
        lastWasComment = false
    }

    /// Line breaks the parser skips and the canonical layout removes: before a block's `{`,
    /// between a block's `}` and `else`/`catch`/`finally`, and inside empty brackets.
    func joinsPreviousLine(_ i: Int, isCloser: Bool) -> Bool {
        let kind = tokens[i].kind
        if kind == .leftBrace, isBlockBrace[i] { return lastToken >= 0 }
        if kind == .kwElse || kind == .kwCatch || kind == .kwFinally {
            return lastToken >= 0 && tokens[lastToken].kind == .rightBrace && isBlockBrace[lastToken]
        }
        return isCloser && partner[i] == i - 1
    }

    /// `true` for the `{` of a block whose `}` is on another line and which is not empty.
    func isMultiLineBlock(_ opener: Int) -> Bool {
        guard isBlockBrace[opener], tokens[opener].kind == .leftBrace else { return false }
        let closer = partner[opener]
        guard closer >= 0 else { return false }
        if closer == opener + 1, !tokens[closer].hasLeadingComment { return false }
        return tokens[closer].line != tokens[opener].line
    }

    /// Starts an item (a token or a comment): on a new line (indented) if `newlines > 0`,
    /// with a blank line first if there was one and one is allowed here; else after a space
    /// if `space`.
    mutating func startItem(newlines: Int, closesBracket: Bool, space: Bool) {
        if newlines > 0, !atLineStart {
            out += "\n"
            let afterOpener =
                !lastWasComment && lastToken >= 0
                && [.leftBrace, .leftParen, .leftBracket].contains(tokens[lastToken].kind)
            if newlines > 1, !afterOpener, !closesBracket { out += "\n" }
            atLineStart = true
            outputLine += 1
        }
        if atLineStart {
            let open = openBrackets.last
            var indent = open.map { closesBracket ? $0.indent : $0.indent + 1 } ?? 0
            // A line that goes on after a binary operator is indented once more, unless a
            // bracket opened on the operator's line indents it already: `log (1 +` ⏎ `2)`.
            if !closesBracket, lastToken >= 0, isBinaryOperator(lastToken), open?.line != lastTokenLine {
                indent += 1
            }
            out += String(repeating: "  ", count: indent)
            lineIndent = indent
            atLineStart = false
        } else if space {
            out += " "
        }
    }

    /// `text` without white space at the end of any line (inside multi-line `/* */` comments,
    /// the only place it can survive; strings never span lines).
    static func trimmingTrailingWhiteSpace(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var changed = false
        for (i, line) in lines.enumerated() {
            guard let last = line.last, last == " " || last == "\t" || last == "\r" else { continue }
            var trimmed = line
            while let c = trimmed.last, c == " " || c == "\t" || c == "\r" { trimmed.removeLast() }
            lines[i] = trimmed
            changed = true
        }
        return changed ? lines.joined(separator: "\n") : text
    }
}
