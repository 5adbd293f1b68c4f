// The lexer's tokens as a stream: scanned many at a time into its ring for the parser, or
// handed out one at a time.

import SagaCore

extension Lexer {
    /// Scans until `target` tokens have been produced (EOF again and again after the end),
    /// keeping the tokens from `keep` on in ``tokens``.
    mutating func lex(until target: Int, keepingFrom keep: Int) {
        keepFrom = keep
        self.target = target
        while produced < target {
            if finished {
                push(CompactToken(kind: .eof, line: line, column: column(at: pos)))
            } else {
                scan()
            }
        }
    }

    /// The next token, for a reader of one token at a time; after the end, EOF again and again.
    mutating func next() -> CompactToken {
        if handedOut >= produced { lex(until: handedOut + 1, keepingFrom: handedOut) }
        let token = tokens[handedOut]
        handedOut += 1
        return token
    }

    /// The last diagnostic reported by a scan step that began before the token numbered
    /// `index` was produced: what the parser sees when it has lexed up to that token (a
    /// diagnostic of a later step, on the current line, must not make the parser keep quiet).
    func lastDiagnostic(before index: Int) -> Diagnostic? {
        var i = min(diagnostics.count, diagnosticSteps.count) - 1
        while i >= 0, diagnosticSteps[i] >= index { i -= 1 }
        return i >= 0 ? diagnostics[i] : nil
    }
}
