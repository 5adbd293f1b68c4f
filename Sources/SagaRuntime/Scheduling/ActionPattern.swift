import SagaCore

/// A `take` pattern, evaluated: what an action's type must be.
enum ActionPattern {
    /// `*`: every action.
    case any
    /// An exact type.
    case exact(String)
    /// A glob: `*` matches any run of characters.
    case glob([UInt8])
    /// Any of these.
    case anyOf([ActionPattern])

    /// Builds a pattern from the value of a pattern expression.
    init(_ value: Value) throws(SagaError) {
        switch value {
        case .string(let s):
            self.init(string: s)
        case .list(let items):
            var patterns: [ActionPattern] = []
            patterns.reserveCapacity(items.count)
            for item in items { patterns.append(try ActionPattern(item)) }
            self = .anyOf(patterns)
        default:
            throw SagaError.typeError("a pattern must be a string or a list of patterns, got \(value.kindName)")
        }
    }

    /// The pattern a string spells: `*`, a glob, or an exact type.
    init(string s: String) {
        if s == "*" {
            self = .any
        } else if Self.hasStar(s) {
            self = .glob(Array(s.utf8))
        } else {
            self = .exact(s)
        }
    }

    /// Whether `text` holds a `*`, over its bytes in place (`utf8.contains` goes through the
    /// generic iterator).
    private static func hasStar(_ text: String) -> Bool {
        let star = UInt8(ascii: "*")
        if let found = text.utf8.withContiguousStorageIfAvailable({ bytes in bytes.contains(star) }) {
            return found
        }
        return text.utf8.contains(star)
    }

    /// The `type` of an action, if it is a record with a string `type`: read once per
    /// dispatch and matched against every pattern, instead of looked up for each (the
    /// look-up copies the record and the string).
    @inline(__always)
    static func type(of action: Value) -> String? {
        guard case .record(let r) = action else { return nil }
        return r.actionType
    }

    /// Whether an action of this type (`nil`: an action without a string `type`) matches.
    ///
    /// Inlined where it is called, so that a pattern held in an array is matched where it is:
    /// called out of line, the pattern would be copied for the call and destroyed after it,
    /// two outlined calls per pattern per action.
    @inline(__always)
    func matches(actionType: String?) -> Bool {
        switch self {
        case .any: return true
        // Byte-equal, as `==` on strings is in the language (and in JavaScript, by code
        // units): Swift's `==` would also accept a canonically equivalent spelling.
        case .exact(let s): return actionType.map { Record.sameKey(s, $0) } ?? false
        case .glob(let g): return actionType.map { Glob.matches(g[...], $0) } ?? false
        case .anyOf(let ps): return actionType.map { Self.anyMatches(ps, $0) } ?? false
        }
    }

    /// Whether an action type matches.
    func matches(type: String) -> Bool {
        matches(actionType: type)
    }

    /// Whether any of `patterns` matches an action type.
    private static func anyMatches(_ patterns: [ActionPattern], _ type: String) -> Bool {
        for p in patterns where p.matches(type: type) { return true }
        return false
    }
}
