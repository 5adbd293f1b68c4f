// The spaces between two items on one line, and the token classes they depend on. The
// parser reads meaning from a few adjacencies (`len(x)` is a call and `put ch (x)` is not;
// `xs[0]` is an index), so those keep the input's choice; everything else is canonical.

extension FormatPrinter {
    /// Whether a space goes between the previous item and token `i` on the same line.
    func needsSpace(before i: Int) -> Bool {
        let next = tokens[i].kind
        if lastWasComment {
            switch next {
            case .rightParen, .rightBracket, .comma, .semicolon, .colon, .stringMiddle, .stringTail: return false
            default: return true
            }
        }
        guard lastToken >= 0 else { return false }
        let previous = tokens[lastToken].kind
        if FormatPrinter.takesNoSpaceAfter(previous) { return false }
        switch next {
        case .rightParen, .rightBracket, .comma, .semicolon, .colon, .stringMiddle, .stringTail:
            return false
        default:
            break
        }
        if next == .dot || previous == .dot {
            // `1 .x` must not become `1.x`, nor `a. 5` `a.5`: keep a number apart as written.
            if next == .number || previous == .number { return !tokens[i].touchesPrevious }
            return false
        }
        if previous == .not || (previous == .minus && !isBinaryOperator(lastToken)) { return false }
        if next == .leftParen || next == .leftBracket {
            if next == .leftParen, isCalleeParen[i] { return false }
            // `f(x)`, `xs[0]`, `join(xs, ",")`, `state["k"]`: touching means call or index.
            if canBeCalledOrIndexed(lastToken) { return !tokens[i].touchesPrevious }
            return true
        }
        if previous == .leftBrace, next == .rightBrace { return false }
        return true
    }

    /// `(`, `[` and the opening segment of an interpolation: nothing follows them with a space.
    static func takesNoSpaceAfter(_ kind: TokenKind) -> Bool {
        kind == .leftParen || kind == .leftBracket || kind == .stringHead || kind == .stringMiddle
    }

    /// A token after which the parser reads a touching `(` or `[` as a call or an index
    /// (``Parser/isDirectlyAfterPrevious`` and ``Parser/isJoinCall``).
    func canBeCalledOrIndexed(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .identifier, .rightParen, .rightBracket, .rightBrace, .kwJoin:
            return true
        default:
            return endsOperand(i)
        }
    }

    /// `true` when token `i` can end an operand, so that a `-` after it subtracts.
    func endsOperand(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .identifier, .number, .string, .stringTail, .rightParen, .rightBracket, .rightBrace,
            .kwTrue, .kwFalse, .kwNull, .kwState, .kwIt, .kwCancelled:
            return true
        default:
            // A keyword is a member name after a dot: `r.all - 1`, `r.where[0]`.
            return tokens[i].kind.isKeyword && i > 0 && tokens[i - 1].kind == .dot
        }
    }

    /// `true` when token `i` is a binary operator (as the parser would read it): `-` after an
    /// operand, `*` between operands (otherwise it is the `*` pattern), and the others.
    func isBinaryOperator(_ i: Int) -> Bool {
        switch tokens[i].kind {
        case .plus, .slash, .percent, .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual,
            .and, .or, .coalesce:
            return true
        case .minus:
            return i > 0 && endsOperand(i - 1)
        case .star:
            guard i > 0, endsOperand(i - 1), i + 1 < tokens.count else { return false }
            return tokens[i + 1].kind.startsExpression && tokens[i + 1].line == tokens[i].line
        default:
            return false
        }
    }
}
