/// The arithmetic and ordering operators of the language (see “Operators” in Sagas/README.md).
/// Equality (`==`) is `Value`'s own deep equality.
///
/// Integers stay integers until a double joins in; integer overflow and division by zero
/// are arithmetic errors, and no operator ever yields an infinite or NaN double.
extension Value {
    /// `a + b`: numbers add; two strings, two lists or two records join (the right record's keys win).
    ///
    /// ```swift
    /// try Value.add(1, 2.5)                 // .double(3.5)
    /// try Value.add(["a": 1], ["a": 2])     // ["a": 2]
    /// ```
    /// - Throws: `TypeError` for mixed kinds, `ArithmeticError` on integer overflow,
    ///   `RangeError` for a string or list past ``maxTextBytes`` or ``maxListCount``.
    public static func add(_ a: Value, _ b: Value) throws(SagaError) -> Value {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            let (r, overflow) = x.addingReportingOverflow(y)
            if overflow { throw overflowError }
            return .int(r)
        case (.string(let x), .string(let y)):
            try checkTextLength(x.utf8.count + y.utf8.count)
            return .string(x + y)
        case (.list(let x), .list(let y)):
            try checkListCount(x.count + y.count)
            return .list(x + y)
        case (.record(let x), .record(let y)): return .record(x.merging(y))
        default:
            guard let x = a.numberValue, let y = b.numberValue else {
                throw SagaError.typeError("cannot add \(a.kindName) and \(b.kindName)")
            }
            return try finite(x + y)
        }
    }

    /// `a - b` on numbers.
    ///
    /// - Throws: `TypeError` unless both are numbers, `ArithmeticError` on integer overflow.
    public static func subtract(_ a: Value, _ b: Value) throws(SagaError) -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.subtractingReportingOverflow(y)
            if overflow { throw overflowError }
            return .int(r)
        }
        guard let x = a.numberValue, let y = b.numberValue else {
            throw SagaError.typeError("cannot subtract \(b.kindName) from \(a.kindName)")
        }
        return try finite(x - y)
    }

    /// `a * b` on numbers.
    ///
    /// - Throws: `TypeError` unless both are numbers, `ArithmeticError` on integer overflow.
    public static func multiply(_ a: Value, _ b: Value) throws(SagaError) -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            let (r, overflow) = x.multipliedReportingOverflow(by: y)
            if overflow { throw overflowError }
            return .int(r)
        }
        guard let x = a.numberValue, let y = b.numberValue else {
            throw SagaError.typeError("cannot multiply \(a.kindName) by \(b.kindName)")
        }
        return try finite(x * y)
    }

    /// `a / b` on numbers: an integer when both are integers and it divides exactly
    /// (`6 / 3` is `2`), otherwise a double (`7 / 2` is `3.5`).
    ///
    /// - Throws: `TypeError` unless both are numbers, `ArithmeticError` on a zero divisor or overflow.
    public static func divide(_ a: Value, _ b: Value) throws(SagaError) -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            if y == 0 { throw divisionByZero }
            let (q, overflow) = x.dividedReportingOverflow(by: y)
            if overflow { throw overflowError }
            if q &* y == x { return .int(q) }
            return .double(Double(x) / Double(y))
        }
        guard let x = a.numberValue, let y = b.numberValue else {
            throw SagaError.typeError("cannot divide \(a.kindName) by \(b.kindName)")
        }
        if y == 0 { throw divisionByZero }
        return try finite(x / y)
    }

    /// `a % b` on numbers: the remainder of the division truncated toward zero, so it has
    /// the sign of `a` (as in JavaScript and Swift: `-7 % 3` is `-1`).
    ///
    /// - Throws: `TypeError` unless both are numbers, `ArithmeticError` on a zero divisor.
    public static func remainder(_ a: Value, _ b: Value) throws(SagaError) -> Value {
        if case .int(let x) = a, case .int(let y) = b {
            if y == 0 { throw divisionByZero }
            // Int.min % -1 overflows in hardware but is 0 in arithmetic.
            if y == -1 { return .int(0) }
            return .int(x % y)
        }
        guard let x = a.numberValue, let y = b.numberValue else {
            throw SagaError.typeError("cannot take the remainder of \(a.kindName) by \(b.kindName)")
        }
        if y == 0 { throw divisionByZero }
        return try finite(x.truncatingRemainder(dividingBy: y))
    }

    /// `-a` on a number.
    ///
    /// - Throws: `TypeError` unless `a` is a number, `ArithmeticError` for `-Int.min`.
    public static func negate(_ a: Value) throws(SagaError) -> Value {
        switch a {
        case .int(let x):
            let (r, overflow) = Int(0).subtractingReportingOverflow(x)
            if overflow { throw overflowError }
            return .int(r)
        case .double(let x): return .double(-x)
        default: throw SagaError.typeError("cannot negate \(a.kindName)")
        }
    }

    /// `a < b`: two numbers by value (exact even between a large integer and a double), or
    /// two strings by Unicode scalar values.
    ///
    /// - Throws: `TypeError` for any other pair.
    public static func less(_ a: Value, _ b: Value) throws(SagaError) -> Bool {
        try compare(a, b) < 0
    }

    /// `a <= b`, with the same rules as ``less(_:_:)``.
    ///
    /// - Throws: `TypeError` unless both are numbers or both are strings.
    public static func lessOrEqual(_ a: Value, _ b: Value) throws(SagaError) -> Bool {
        try compare(a, b) <= 0
    }

    /// `a > b`, with the same rules as ``less(_:_:)``.
    ///
    /// - Throws: `TypeError` unless both are numbers or both are strings.
    public static func greater(_ a: Value, _ b: Value) throws(SagaError) -> Bool {
        try compare(a, b) > 0
    }

    /// `a >= b`, with the same rules as ``less(_:_:)``.
    ///
    /// - Throws: `TypeError` unless both are numbers or both are strings.
    public static func greaterOrEqual(_ a: Value, _ b: Value) throws(SagaError) -> Bool {
        try compare(a, b) >= 0
    }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`.
    static func compare(_ a: Value, _ b: Value) throws(SagaError) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.double(let x), .double(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.int(let x), .double(let y)): return compareExactly(x, y)
        case (.double(let x), .int(let y)): return -compareExactly(y, x)
        case (.string(let x), .string(let y)):
            if x.utf8.elementsEqual(y.utf8) { return 0 }
            // UTF-8 byte order is Unicode scalar order.
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        default:
            throw SagaError.typeError("cannot compare \(a.kindName) and \(b.kindName)")
        }
    }

    private static var overflowError: SagaError { SagaError.arithmetic("integer overflow") }
    private static var divisionByZero: SagaError { SagaError.arithmetic("division by zero") }

    /// Keeps infinities and NaN out of the language: they have no JSON form and break equality.
    @inline(__always)
    private static func finite(_ d: Double) throws(SagaError) -> Value {
        guard d.isFinite else { throw SagaError.arithmetic("number out of range") }
        return .double(d)
    }
}
