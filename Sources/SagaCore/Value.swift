/// A dynamic value of the saga language: what actions, state, variables and messages hold.
///
/// Numbers are either a 64-bit integer or a double; `1 == 1.0` is true (deep equality
/// compares numbers by value). Records keep their keys sorted by Unicode scalar value, so
/// that canonical JSON and `keys(r)` need no sorting.
///
/// ```swift
/// let action: Value = ["type": "counter/add", "by": 2]
/// action["by"]   // .int(2)
/// ```
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([Value])
    case record(Record)
    /// An opaque reference to a runtime object (a task or a channel).
    ///
    /// Boxed: a handle is three words, and unboxed it made every value 25 bytes (a stride of
    /// 32 in every list, record and variables array) instead of 17 (a stride of 24).
    indirect case handle(Handle)
}

extension Value {
    /// The name of this value's kind, as error messages show it.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int, .double: return "number"
        case .string: return "string"
        case .list: return "list"
        case .record: return "record"
        case .handle(let h): return h.kind.rawValue
        }
    }

    /// The value as a double, if it is a number.
    @inlinable
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The string, if this value is one.
    @inlinable
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The record, if this value is one.
    @inlinable
    public var recordValue: Record? {
        if case .record(let r) = self { return r }
        return nil
    }

    /// `true` for `.null`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Member access as the language defines it: a missing key, or access on null, gives null.
    ///
    /// Returns `nil` when the access is a type error (a member of a number, say).
    @inlinable
    public func member(_ key: String) -> Value? {
        switch self {
        case .record(let r): return r[key] ?? .null
        case .null: return .null
        default: return nil
        }
    }

    /// Record field access for Swift callers: `.null` for a missing key or a non-record.
    public subscript(key: String) -> Value {
        if case .record(let r) = self { return r[key] ?? .null }
        return .null
    }
}

extension Value: Equatable {
    /// Deep equality: lists element-wise, records key-wise, and numbers by value (`1 == 1.0`).
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)): return Double(a) == b && Double(exactly: a) != nil
        case (.double(let a), .int(let b)): return a == Double(b) && Double(exactly: b) != nil
        // Byte-equal, as keys are: `utf8.elementsEqual` ran unspecialised generic code.
        case (.string(let a), .string(let b)): return Record.sameKey(a, b)
        case (.list(let a), .list(let b)): return a == b
        case (.record(let a), .record(let b)): return a == b
        case (.handle(let a), .handle(let b)): return a == b
        default: return false
        }
    }
}

extension Value: Hashable {
    /// Hashes the first values of a depth-first walk, at most `hashedValues` of them: equal
    /// values walk alike, so they hash alike, and a value whose parts are shared many times
    /// over (`r = {a: r, b: r}`, repeated) costs no more than a small one.
    public func hash(into hasher: inout Hasher) {
        var budget = Value.hashedValues
        hash(into: &hasher, budget: &budget)
    }

    /// How many values one hash walks at most.
    static let hashedValues = 1024

    func hash(into hasher: inout Hasher, budget: inout Int) {
        budget -= 1
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .int(let i): hasher.combine(Double(i))
        case .double(let d): hasher.combine(d)
        case .string(let s): hasher.combine(s)
        case .list(let l):
            hasher.combine(l.count)
            for item in l {
                guard budget > 0 else { return }
                item.hash(into: &hasher, budget: &budget)
            }
        case .record(let r): r.hash(into: &hasher, budget: &budget)
        case .handle(let h): hasher.combine(h)
        }
    }
}

extension Value: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        var r = Record()
        for (k, v) in elements { r[k] = v }
        self = .record(r)
    }
}
