/// Calling a built-in function: the arity check, then one small function per built-in.
extension Builtin {
    /// Calls the function on `args`.
    ///
    /// ```swift
    /// try Builtin.slice.apply([[1, 2, 3, 4], -2], now: 0)   // [3, 4]
    /// try Builtin.now.apply([], now: 1500)                 // 1500
    /// ```
    /// - Parameters:
    ///   - args: The evaluated arguments, in order.
    ///   - now: The scheduler's clock in milliseconds, which `now()` returns.
    /// - Returns: The result.
    /// - Throws: `TypeError` for a wrong number or kind of arguments, `ArithmeticError` for a
    ///   number out of range, `RangeError` for a `range(n)` too large, `ParseError` from `parseJson`.
    package func apply(_ args: [Value], now: Int) throws(SagaError) -> Value {
        guard arity.contains(args.count) else { throw arityError(args.count) }
        switch self {
        case .len: return try len(args[0])
        case .keys: return .list(try record(args[0]).map { .string($0.key) })
        case .values: return .list(try record(args[0]).values)
        case .has: return try has(args[0], args[1])
        case .contains: return try contains(args[0], args[1])
        case .str: return .string(try args[0].checkedDisplayString())
        case .int: return try toInt(args[0])
        case .number: return try toNumber(args[0])
        case .abs: return try abs(args[0])
        case .min: return try pick(args[0], args[1], smaller: true)
        case .max: return try pick(args[0], args[1], smaller: false)
        case .floor: return try floor(args[0])
        case .range: return try range(args[0])
        case .slice: return try slice(args[0], args[1], args.count > 2 ? args[2] : .null)
        case .split: return try split(args[0], args[1])
        case .join: return try join(args[0], args[1])
        case .lower: return .string(try string(args[0]).lowercased())
        case .upper: return .string(try string(args[0]).uppercased())
        case .json: return .string(try args[0].checkedCanonicalJSON())
        case .parseJson: return try parseJson(args[0])
        case .now: return .int(now)
        }
    }

    // MARK: Errors and argument checks

    private func arityError(_ count: Int) -> SagaError {
        let expected: String
        if arity.lowerBound == arity.upperBound {
            expected = arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments"
        } else {
            expected = "\(arity.lowerBound) to \(arity.upperBound) arguments"
        }
        return .typeError("\(rawValue) expects \(expected), got \(count)")
    }

    /// `NAME expects EXPECTED, got KIND`.
    func typeError(_ expected: String, got value: Value) -> SagaError {
        .typeError("\(rawValue) expects \(expected), got \(value.kindName)")
    }

    private func record(_ value: Value) throws(SagaError) -> Record {
        guard case .record(let r) = value else { throw typeError("a record", got: value) }
        return r
    }

    func string(_ value: Value) throws(SagaError) -> String {
        guard case .string(let s) = value else { throw typeError("a string", got: value) }
        return s
    }

    /// An integer argument: an `.int`, or a `.double` with no fractional part that fits `Int`.
    func integer(_ value: Value, _ what: String) throws(SagaError) -> Int {
        switch value {
        case .int(let i): return i
        case .double(let d):
            if let i = Int(exactly: d) { return i }
            throw SagaError.typeError("\(rawValue) expects an integer \(what), got \(value.canonicalJSON)")
        default:
            throw SagaError.typeError("\(rawValue) expects an integer \(what), got \(value.kindName)")
        }
    }

    private func outOfRange(_ value: Value) -> SagaError {
        .arithmetic("\(rawValue): \(value.canonicalJSON) is out of the integer range")
    }

    // MARK: Collections

    private func len(_ value: Value) throws(SagaError) -> Value {
        switch value {
        case .string(let s): return .int(s.count)
        case .list(let l): return .int(l.count)
        case .record(let r): return .int(r.count)
        default: throw typeError("a string, list or record", got: value)
        }
    }

    private func has(_ target: Value, _ key: Value) throws(SagaError) -> Value {
        guard case .string(let k) = key else { throw typeError("a string key", got: key) }
        switch target {
        case .record(let r): return .bool(r[k] != nil)
        // Any access on null gives null, so `has` on a missing record is simply false.
        case .null: return .bool(false)
        default: throw typeError("a record", got: target)
        }
    }

    private func contains(_ haystack: Value, _ needle: Value) throws(SagaError) -> Value {
        switch haystack {
        case .list(let l): return .bool(l.contains(needle))
        case .string(let s):
            guard case .string(let sub) = needle else { throw typeError("a string to find in a string", got: needle) }
            return .bool(Builtin.firstOffset(of: Array(sub.utf8), in: Array(s.utf8)) != nil)
        case .null: return .bool(false)
        default: throw typeError("a list or string", got: haystack)
        }
    }

    private func range(_ value: Value) throws(SagaError) -> Value {
        let n = try integer(value, "count")
        guard n <= Builtin.maxRange else {
            throw SagaError(kind: "RangeError", message: "range: \(n) is more than \(Builtin.maxRange) elements")
        }
        guard n > 0 else { return .list([]) }
        return .list((0..<n).map { .int($0) })
    }

    private func slice(_ target: Value, _ fromValue: Value, _ toValue: Value) throws(SagaError) -> Value {
        let from = fromValue.isNull ? 0 : try integer(fromValue, "start index")
        let to = toValue.isNull ? Int.max : try integer(toValue, "end index")
        switch target {
        case .list(let l):
            let r = Builtin.clampedRange(from, to, count: l.count)
            return .list(Array(l[r]))
        case .string(let s):
            let r = Builtin.clampedRange(from, to, count: s.count)
            let start = s.index(s.startIndex, offsetBy: r.lowerBound)
            let end = s.index(start, offsetBy: r.count)
            return .string(String(s[start..<end]))
        default: throw typeError("a list or string", got: target)
        }
    }

    /// JavaScript's `slice` bounds: a negative index counts from the end; both are clamped.
    static func clampedRange(_ from: Int, _ to: Int, count: Int) -> Range<Int> {
        func clamp(_ i: Int) -> Int {
            if i < 0 { return Swift.max(0, count &+ Swift.max(i, -count)) }
            return Swift.min(i, count)
        }
        let lo = clamp(from)
        let hi = clamp(to)
        return lo..<Swift.max(lo, hi)
    }

    private func join(_ list: Value, _ separator: Value) throws(SagaError) -> Value {
        guard case .list(let items) = list else { throw typeError("a list", got: list) }
        guard case .string(let sep) = separator else { throw typeError("a string separator", got: separator) }
        var out = ""
        for (i, item) in items.enumerated() {
            if i > 0 { out += sep }
            out += try item.checkedDisplayString()
            try Value.checkTextLength(out.utf8.count)
        }
        return .string(out)
    }

    private func parseJson(_ value: Value) throws(SagaError) -> Value {
        let text = try string(value)
        do {
            return try JSONReader.parse(text)
        } catch {
            throw SagaError(
                kind: "ParseError",
                message: "parseJson: \(error.message) at line \(error.line), column \(error.column)")
        }
    }

    // MARK: Numbers

    private func abs(_ value: Value) throws(SagaError) -> Value {
        switch value {
        case .int(let i):
            guard i != Int.min else { throw SagaError.arithmetic("integer overflow") }
            return .int(Swift.abs(i))
        case .double(let d): return .double(d.magnitude)
        default: throw typeError("a number", got: value)
        }
    }

    private func floor(_ value: Value) throws(SagaError) -> Value {
        switch value {
        case .int: return value
        case .double(let d):
            guard let i = Int(exactly: d.rounded(.down)) else { throw outOfRange(value) }
            return .int(i)
        default: throw typeError("a number", got: value)
        }
    }

    private func pick(_ a: Value, _ b: Value, smaller: Bool) throws(SagaError) -> Value {
        switch (a, b) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double), (.string, .string):
            let order = try Value.compare(a, b)
            if smaller { return order <= 0 ? a : b }
            return order >= 0 ? a : b
        default:
            throw SagaError.typeError(
                "\(rawValue) expects two numbers or two strings, got \(a.kindName) and \(b.kindName)")
        }
    }

    private func toInt(_ value: Value) throws(SagaError) -> Value {
        switch value {
        case .int: return value
        case .double(let d):
            guard let i = Int(exactly: d.rounded(.towardZero)) else { throw outOfRange(value) }
            return .int(i)
        case .string(let s):
            switch Builtin.parseInteger(s) {
            case .some(.some(let i)): return .int(i)
            case .some(.none): throw outOfRange(value)
            case .none: throw SagaError.typeError("int cannot convert \(value.canonicalJSON) to an integer")
            }
        default: throw typeError("a number or string", got: value)
        }
    }

    private func toNumber(_ value: Value) throws(SagaError) -> Value {
        switch value {
        case .int, .double: return value
        case .string(let s):
            switch Builtin.parseNumber(s) {
            case .some(.some(let n)): return n
            case .some(.none): throw SagaError.arithmetic("number: \(value.canonicalJSON) is out of range")
            case .none: throw SagaError.typeError("number cannot convert \(value.canonicalJSON) to a number")
            }
        default: throw typeError("a number or string", got: value)
        }
    }
}
