// How each token kind is written, for diagnostics, and the keyword table the lexer uses
// to tell keywords from identifiers without building a String.

extension TokenKind {
    /// The token as a diagnostic names it: `'{'`, `'saga'`, `newline`, `end of file`.
    var spelling: String {
        switch self {
        case .newline: return "newline"
        case .eof: return "end of file"
        case .error: return "invalid token"
        case .identifier: return "identifier"
        case .number: return "number"
        case .string, .stringHead: return "string literal"
        case .stringMiddle, .stringTail: return "string interpolation"
        default: return "'\(text)'"
        }
    }

    /// The source text of a punctuation or keyword token (empty for the others).
    var text: String {
        switch self {
        case .leftParen: return "("
        case .rightParen: return ")"
        case .leftBracket: return "["
        case .rightBracket: return "]"
        case .leftBrace: return "{"
        case .rightBrace: return "}"
        case .comma: return ","
        case .colon: return ":"
        case .semicolon: return ";"
        case .dot: return "."
        case .assign: return "="
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .percent: return "%"
        case .and: return "&&"
        case .or: return "||"
        case .not: return "!"
        case .coalesce: return "??"
        default:
            for group in keywordTable {
                for (word, kind) in group where kind == self {
                    return word.description
                }
            }
            return ""
        }
    }

    /// The keyword spelled by `count` bytes at `start`, or `nil` for an identifier.
    ///
    /// A switch on the first byte, then a compare of the rest with each keyword of that letter
    /// and length, written out: looking them up in ``keywordTable`` (a global array of arrays)
    /// costs more than the compares. The table stays the list of record, and a test checks
    /// that the two agree.
    ///
    /// - Complexity: O(1): at most seven short compares.
    static func keyword(in bytes: UnsafeBufferPointer<UInt8>, start: Int, count: Int) -> TokenKind? {
        /// Whether the bytes are `word` (whose first byte is known to match).
        @inline(__always)
        func isWord(_ word: StaticString) -> Bool {
            guard word.utf8CodeUnitCount == count else { return false }
            let spelled = word.utf8Start
            var i = 1
            while i < count {
                if spelled[i] != bytes[start + i] { return false }
                i += 1
            }
            return true
        }
        switch bytes[start] {
        case UInt8(ascii: "a"):
            if isWord("all") { return .kwAll }
            if isWord("as") { return .kwAs }
            if isWord("actionChannel") { return .kwActionChannel }
        case UInt8(ascii: "b"):
            if isWord("break") { return .kwBreak }
            if isWord("backoff") { return .kwBackoff }
            if isWord("buffer") { return .kwBuffer }
        case UInt8(ascii: "c"):
            if isWord("call") { return .kwCall }
            if isWord("catch") { return .kwCatch }
            if isWord("cancel") { return .kwCancel }
            if isWord("channel") { return .kwChannel }
            if isWord("continue") { return .kwContinue }
            if isWord("cancelled") { return .kwCancelled }
            if isWord("compensate") { return .kwCompensate }
        case UInt8(ascii: "d"):
            if isWord("delay") { return .kwDelay }
            if isWord("debounce") { return .kwDebounce }
        case UInt8(ascii: "e"):
            if isWord("else") { return .kwElse }
            if isWord("every") { return .kwEvery }
            if isWord("extern") { return .kwExtern }
        case UInt8(ascii: "f"):
            if isWord("for") { return .kwFor }
            if isWord("func") { return .kwFunc }
            if isWord("fork") { return .kwFork }
            if isWord("false") { return .kwFalse }
            if isWord("finally") { return .kwFinally }
        case UInt8(ascii: "i"):
            if isWord("if") { return .kwIf }
            if isWord("in") { return .kwIn }
            if isWord("it") { return .kwIt }
            if isWord("import") { return .kwImport }
        case UInt8(ascii: "j"):
            if isWord("join") { return .kwJoin }
        case UInt8(ascii: "l"):
            if isWord("let") { return .kwLet }
            if isWord("log") { return .kwLog }
            if isWord("loop") { return .kwLoop }
            if isWord("latest") { return .kwLatest }
            if isWord("leading") { return .kwLeading }
        case UInt8(ascii: "n"):
            if isWord("null") { return .kwNull }
        case UInt8(ascii: "p"):
            if isWord("put") { return .kwPut }
        case UInt8(ascii: "r"):
            if isWord("race") { return .kwRace }
            if isWord("retry") { return .kwRetry }
            if isWord("reduce") { return .kwReduce }
            if isWord("return") { return .kwReturn }
        case UInt8(ascii: "s"):
            if isWord("saga") { return .kwSaga }
            if isWord("state") { return .kwState }
            if isWord("spawn") { return .kwSpawn }
            if isWord("select") { return .kwSelect }
        case UInt8(ascii: "t"):
            if isWord("try") { return .kwTry }
            if isWord("take") { return .kwTake }
            if isWord("true") { return .kwTrue }
            if isWord("throw") { return .kwThrow }
            if isWord("throttle") { return .kwThrottle }
            if isWord("transaction") { return .kwTransaction }
        case UInt8(ascii: "v"):
            if isWord("var") { return .kwVar }
        case UInt8(ascii: "w"):
            if isWord("while") { return .kwWhile }
            if isWord("where") { return .kwWhere }
        default:
            break
        }
        return nil
    }

    /// Every keyword with its spelling, from the table of record.
    static var keywords: [(String, TokenKind)] {
        keywordTable.flatMap { $0.map { ($0.0.description, $0.1) } }
    }
}

/// The keywords (see “Keywords” in Sagas/README.md), grouped by first letter (`a` at index 0).
private let keywordTable: [[(StaticString, TokenKind)]] = [
    [("all", .kwAll), ("as", .kwAs), ("actionChannel", .kwActionChannel)],  // a
    [("break", .kwBreak), ("backoff", .kwBackoff), ("buffer", .kwBuffer)],  // b
    [
        ("call", .kwCall), ("catch", .kwCatch), ("cancel", .kwCancel), ("channel", .kwChannel),
        ("continue", .kwContinue), ("cancelled", .kwCancelled), ("compensate", .kwCompensate),
    ],  // c
    [("delay", .kwDelay), ("debounce", .kwDebounce)],  // d
    [("else", .kwElse), ("every", .kwEvery), ("extern", .kwExtern)],  // e
    [("for", .kwFor), ("func", .kwFunc), ("fork", .kwFork), ("false", .kwFalse), ("finally", .kwFinally)],  // f
    [],  // g
    [],  // h
    [("if", .kwIf), ("in", .kwIn), ("it", .kwIt), ("import", .kwImport)],  // i
    [("join", .kwJoin)],  // j
    [],  // k
    [("let", .kwLet), ("log", .kwLog), ("loop", .kwLoop), ("latest", .kwLatest), ("leading", .kwLeading)],  // l
    [],  // m
    [("null", .kwNull)],  // n
    [],  // o
    [("put", .kwPut)],  // p
    [],  // q
    [("race", .kwRace), ("retry", .kwRetry), ("reduce", .kwReduce), ("return", .kwReturn)],  // r
    [("saga", .kwSaga), ("state", .kwState), ("spawn", .kwSpawn), ("select", .kwSelect)],  // s
    [
        ("try", .kwTry), ("take", .kwTake), ("true", .kwTrue), ("throw", .kwThrow),
        ("throttle", .kwThrottle), ("transaction", .kwTransaction),
    ],  // t
    [],  // u
    [("var", .kwVar)],  // v
    [("while", .kwWhile), ("where", .kwWhere)],  // w
    [],  // x
    [],  // y
    [],  // z
]
