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
    /// - Complexity: O(1): a switch on the first byte, then at most seven short compares.
    static func keyword(in bytes: UnsafeBufferPointer<UInt8>, start: Int, count: Int) -> TokenKind? {
        let first = bytes[start]
        guard first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return nil }
        let candidates = keywordTable[Int(first - UInt8(ascii: "a"))]
        for (word, kind) in candidates where word.utf8CodeUnitCount == count {
            var same = true
            let spelled = word.utf8Start
            var i = 1
            while i < count {
                if spelled[i] != bytes[start + i] {
                    same = false
                    break
                }
                i += 1
            }
            if same { return kind }
        }
        return nil
    }
}

/// The keywords of §1, grouped by first letter (`a` at index 0).
private let keywordTable: [[(StaticString, TokenKind)]] = [
    [("all", .kwAll), ("as", .kwAs), ("actionChannel", .kwActionChannel)],  // a
    [("break", .kwBreak), ("backoff", .kwBackoff), ("buffer", .kwBuffer)],  // b
    [
        ("call", .kwCall), ("catch", .kwCatch), ("cancel", .kwCancel), ("channel", .kwChannel),
        ("continue", .kwContinue), ("cancelled", .kwCancelled), ("compensate", .kwCompensate),
    ],  // c
    [("delay", .kwDelay), ("debounce", .kwDebounce)],  // d
    [("else", .kwElse), ("every", .kwEvery)],  // e
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
