/// The built-in pure functions a saga can call in an expression (see “Built-in functions” in
/// Sagas/README.md), such as `len(x)`, `keys(r)` and `json(x)`.
///
/// Each is pure given the scheduler clock (`now()` reads it). A call with an argument of the
/// wrong kind throws a `TypeError` that names the function:
/// `len expects a string, list or record, got number`.
///
/// ```swift
/// guard let f = Builtin(rawValue: "len") else { … }
/// try f.apply(["abc"], now: 0)   // .int(3)
/// ```
package enum Builtin: String, CaseIterable, Sendable {
    /// `len(x)`: characters of a string (as Swift counts them), elements of a list, keys of a record.
    case len
    /// `keys(r)`: the keys of a record, sorted by Unicode scalar value.
    case keys
    /// `values(r)`: the values of a record, in key order.
    case values
    /// `has(r, key)`: whether record `r` has `key` (`false` when `r` is null).
    case has
    /// `contains(xs, x)`: a list holds an element deeply equal to `x`, or a string holds the substring `x`.
    case contains
    /// `str(x)`: a string as is, anything else as canonical JSON.
    case str
    /// `int(x)`: a number truncated toward zero, or a string holding an integer.
    case int
    /// `number(x)`: a number as is, or a string holding a decimal number.
    case number
    /// `abs(x)`: the magnitude of a number.
    case abs
    /// `min(a, b)`: the smaller of two numbers or two strings (`a` on a tie).
    case min
    /// `max(a, b)`: the larger of two numbers or two strings (`a` on a tie).
    case max
    /// `floor(x)`: the largest integer not above a number.
    case floor
    /// `range(n)`: the list `[0, 1, …, n-1]` (empty when `n <= 0`).
    case range
    /// `slice(xs, from[, to])`: part of a list or string, with JavaScript's clamping and negative indices.
    case slice
    /// `split(s, sep)`: the parts of `s` between occurrences of `sep` (characters when `sep` is empty).
    case split
    /// `join(xs, sep)`: the elements' display strings, separated by `sep`.
    case join
    /// `lower(s)`: the string in lower case.
    case lower
    /// `upper(s)`: the string in upper case.
    case upper
    /// `json(x)`: the canonical JSON text of `x`.
    case json
    /// `parseJson(s)`: the value that JSON text `s` holds; bad JSON is a `ParseError`.
    case parseJson
    /// `now()`: the scheduler's clock in milliseconds (virtual under `--virtual-time`).
    case now

    /// The largest `n` that `range(n)` accepts, so a typo cannot exhaust memory.
    package static let maxRange = 10_000_000

    /// How many arguments the function takes.
    package var arity: ClosedRange<Int> {
        switch self {
        case .now: return 0...0
        case .len, .keys, .values, .str, .int, .number, .abs, .floor, .range, .lower, .upper, .json, .parseJson:
            return 1...1
        case .has, .contains, .min, .max, .split, .join: return 2...2
        case .slice: return 2...3
        }
    }
}
