// The kinds of token the lexer produces: punctuation, keywords, literals and the
// NEWLINE that ends a statement.

/// What a ``Token`` is.
///
/// Keywords get a case each, so the parser switches on one byte instead of comparing text.
enum TokenKind: UInt8, Sendable {
    // Structure.
    case newline, eof
    /// A character the lexer could not make sense of; it has already reported it.
    case error

    // Literals and names.
    case identifier
    /// An integer, a decimal or a duration (already in milliseconds).
    case number
    /// A string with no interpolation.
    case string
    /// The text of an interpolated string up to its first `\(`.
    case stringHead
    /// The text between a `)` that closes an interpolation and the next `\(`.
    case stringMiddle
    /// The text after the last interpolation, up to the closing quote.
    case stringTail

    // Punctuation and operators.
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
    case comma, colon, semicolon, dot
    case assign, equal, notEqual, less, lessEqual, greater, greaterEqual
    case plus, minus, star, slash, percent
    case and, or, not, coalesce

    // Keywords (see “Keywords” in Sagas/README.md).
    case kwImport, kwState, kwReduce, kwSaga, kwFunc, kwLet, kwVar, kwIf, kwElse
    case kwWhile, kwLoop, kwFor, kwIn, kwBreak, kwContinue, kwReturn, kwTry, kwCatch
    case kwFinally, kwThrow, kwLog, kwTransaction, kwCompensate
    case kwEvery, kwLatest, kwLeading, kwThrottle, kwDebounce
    case kwTake, kwPut, kwSelect, kwCall, kwFork, kwSpawn, kwJoin, kwCancel, kwCancelled
    case kwDelay, kwRace, kwAll, kwRetry, kwBackoff, kwChannel, kwActionChannel, kwBuffer
    case kwAs, kwWhere, kwIt, kwTrue, kwFalse, kwNull
    case kwExtern
}

extension TokenKind {
    /// `true` for every keyword of the language.
    var isKeyword: Bool {
        rawValue >= TokenKind.kwImport.rawValue
    }

    /// `true` for a keyword that starts an effect (`take`, `put`, …).
    var isEffectKeyword: Bool {
        switch self {
        case .kwTake, .kwPut, .kwSelect, .kwCall, .kwFork, .kwSpawn, .kwJoin, .kwCancel,
            .kwDelay, .kwRace, .kwAll, .kwRetry, .kwChannel, .kwActionChannel:
            return true
        default:
            return false
        }
    }

    /// `true` for a keyword that starts a watcher (`every`, `latest`, …).
    var isWatcherKeyword: Bool {
        switch self {
        case .kwEvery, .kwLatest, .kwLeading, .kwThrottle, .kwDebounce: return true
        default: return false
        }
    }

    /// `true` for a token that can begin an expression.
    var startsExpression: Bool {
        switch self {
        case .identifier, .number, .string, .stringHead, .leftParen, .leftBracket, .leftBrace,
            .minus, .not, .kwState, .kwCancelled, .kwIt, .kwTrue, .kwFalse, .kwNull:
            return true
        default:
            return false
        }
    }
}
