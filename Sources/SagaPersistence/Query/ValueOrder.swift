import SagaCore

/// The total order of values that queries sort by: null < booleans < numbers < strings <
/// lists < records (then task and channel handles, which elements never hold).
///
/// Within a kind: `false < true`; numbers by value, exactly (an integer and a double
/// compare without rounding, and `1` equals `1.0`); strings by Unicode scalar values;
/// lists element by element, a shorter prefix first; records key by key (keys in their
/// sorted order, compared as strings, then their values), a record that is a prefix of
/// another first. `compare(a, b) == 0` exactly when `a == b`.
///
/// ```swift
/// ValueOrder.compare(.null, false)      // -1
/// ValueOrder.compare(2, 1.5)            // 1
/// ValueOrder.compare(["a"], ["a", 1])   // -1
/// ```
package enum ValueOrder {
    /// -1, 0 or 1 as `a` sorts before, with, or after `b`.
    package static func compare(_ a: Value, _ b: Value) -> Int {
        let ra = rank(a)
        let rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a, b) {
        case (.bool(let x), .bool(let y)):
            return x == y ? 0 : (x ? 1 : -1)
        case (.int(let x), .int(let y)):
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.double(let x), .double(let y)):
            return compareDoubles(x, y)
        case (.int(let x), .double(let y)):
            return Value.compareExactly(x, y)
        case (.double(let x), .int(let y)):
            return -Value.compareExactly(y, x)
        case (.string(let x), .string(let y)):
            return compareStrings(x, y)
        case (.list(let x), .list(let y)):
            for (u, v) in zip(x, y) {
                let c = compare(u, v)
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case (.record(let x), .record(let y)):
            for (u, v) in zip(x, y) {
                let k = compareStrings(u.key, v.key)
                if k != 0 { return k }
                let c = compare(u.value, v.value)
                if c != 0 { return c }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case (.handle(let x), .handle(let y)):
            if x.kind != y.kind { return x.kind == .task ? -1 : 1 }
            return x.id < y.id ? -1 : (x.id == y.id ? 0 : 1)
        default:
            return 0
        }
    }

    /// The kind's place in the order.
    static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return 0
        case .bool: return 1
        case .int, .double: return 2
        case .string: return 3
        case .list: return 4
        case .record: return 5
        case .handle: return 6
        }
    }

    /// Strings by Unicode scalar value, which is the order of their UTF-8 bytes.
    static func compareStrings(_ x: String, _ y: String) -> Int {
        if x.utf8.elementsEqual(y.utf8) { return 0 }
        return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
    }

    /// Doubles, with NaN (which the language never makes) below every number so the order stays total.
    private static func compareDoubles(_ x: Double, _ y: Double) -> Int {
        if x.isNaN || y.isNaN { return x.isNaN ? (y.isNaN ? 0 : -1) : 1 }
        return x < y ? -1 : (x == y ? 0 : 1)
    }

}
