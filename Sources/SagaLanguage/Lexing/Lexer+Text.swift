// What tokens carry, for those who need more than the parser's CompactTokens: the text of
// a name or a string segment, and whole tokens with their text for the formatter and tests.

import SagaCore

extension Lexer {
    /// All the tokens of `file`, ending with an EOF token, and the diagnostics of bad ones.
    static func tokenize(_ file: SourceFile, fileIndex: Int32) -> (tokens: [Token], diagnostics: [Diagnostic]) {
        var text = file.text
        return text.withUTF8 { buffer in
            var lexer = Lexer(bytes: buffer, file: fileIndex)
            var tokens: [Token] = []
            while true {
                let token = lexer.next()
                tokens.append(Token(token, text: lexer.text(of: token)))
                if token.kind == .eof { break }
            }
            return (tokens, lexer.diagnostics)
        }
    }

    /// The name of an identifier or the decoded text of a string segment; empty for the others.
    func text(of token: CompactToken) -> String {
        switch token.kind {
        case .identifier:
            let start = min(max(token.value, 0), bytes.count)
            let end = min(max(start + token.count, start), bytes.count)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        case .string, .stringHead, .stringMiddle, .stringTail:
            return strings.indices.contains(token.value) ? strings[token.value] : ""
        default:
            return ""
        }
    }
}
