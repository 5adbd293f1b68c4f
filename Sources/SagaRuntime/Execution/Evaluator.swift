import SagaCore
import SagaLanguage

/// What compiled code (``Code``) applies to values: operators, member and index reads, the
/// limits on what it builds, and `now()` and `cancelled` where it runs.
///
/// An evaluator is a trivial value, made afresh for each run of code at no cost.
struct Evaluator {
    /// The scheduler's clock, read by `now()` when it is called: reading a real clock for
    /// every evaluator made, most of which never call `now()`, would be a `DispatchTime.now()`
    /// per statement.
    ///
    /// Unowned: its owner outlives every evaluator it makes.
    unowned(unsafe) let clock: (any SchedulerClock)?
    /// Whether `cancelled` is true here.
    var cancelled: Bool
    /// What `now()` gives where there is no clock (a constant pattern, the initial state).
    private var fixedNow: Int
    /// The longest list (elements) or string (UTF-8 bytes) that `+`, interpolation or a
    /// built-in may build (``Interpreter/Options/maxLength``).
    var maxLength: Int
    /// The run's memory budget, if it has one (``Interpreter/Options/maxMemory``).
    ///
    /// Unowned: its owner outlives every evaluator it makes.
    unowned(unsafe) let memory: MemoryWatch?

    /// The scheduler's clock, for `now()`.
    var now: Int { clock?.now ?? fixedNow }

    init(
        cancelled: Bool = false, clock: (any SchedulerClock)?, maxLength: Int = Int.max, memory: MemoryWatch? = nil
    ) {
        self.clock = clock
        self.cancelled = cancelled
        self.fixedNow = 0
        self.maxLength = maxLength
        self.memory = memory
    }

    /// An evaluator with no clock: `now()` gives `now`.
    init(now: Int) {
        self.clock = nil
        self.cancelled = false
        self.fixedNow = now
        self.maxLength = Int.max
        self.memory = nil
    }

    /// Fails a list or string longer than ``maxLength``: growing one by doubling it in a loop
    /// must fail cleanly long before it takes all memory.
    func checkLength(_ value: Value) throws(SagaError) -> Value {
        let length: Int
        switch value {
        case .list(let items): length = items.count
        case .string(let s): length = s.utf8.count
        default: return value
        }
        try checkLength(count: length)
        return value
    }

    /// Fails a list or string of `length` elements or UTF-8 bytes, if that is past ``maxLength``,
    /// or if a long one is built once the run has held more than its memory budget.
    func checkLength(count length: Int) throws(SagaError) {
        if length >= MemoryWatch.watchedLength, let memory, memory.isExceeded { throw memory.error }
        guard length > maxLength else { return }
        throw SagaError(
            kind: "RangeError",
            message: "a list or string would be longer than \(maxLength) (elements or UTF-8 bytes); "
                + "raise the limit with --max-length")
    }

    /// `op v`: what the evaluator and compiled code (``Code``) both use.
    static func apply(_ op: UnaryOperator, _ v: Value) throws(SagaError) -> Value {
        switch op {
        case .negate: return try Value.negate(v)
        case .not:
            guard case .bool(let b) = v else { throw needs(.not, v) }
            return .bool(!b)
        }
    }

    /// One side of `&&` or `||`, which must be a bool.
    static func logicalOperand(_ op: BinaryOperator, _ v: Value) throws(SagaError) -> Bool {
        guard case .bool(let b) = v else { throw needs(.operator(op), v) }
        return b
    }

    /// `base.key`: null for a missing key or a null base; an error for any other base.
    static func member(_ key: String, of base: Value) throws(SagaError) -> Value {
        guard let v = base.member(key) else { throw cannotRead(key, of: base) }
        return v
    }

    /// The error of reading `key` of a value that has no members.
    ///
    /// Out of line, as ``needs(_:_:)`` is: the message's text, made where the read is, would
    /// be set up at every entry of the code loop that reads members.
    @inline(never)
    private static func cannotRead(_ key: String, of base: Value) -> SagaError {
        // JavaScript's `xs.length`: a list's or a string's length is a built-in's.
        let hint: String
        switch base {
        case .list, .string: hint = key == "length" || key == "size" || key == "count" ? "; write len(x)" : ""
        default: hint = ""
        }
        return SagaError.typeError("cannot read '.\(key)' of a \(base.kindName)\(hint)")
    }

    /// What needs a bool (see ``needs(_:_:)``).
    private enum BoolUse {
        case not
        case `operator`(BinaryOperator)
        case condition
    }

    /// The error of a value that is not the bool `use` needs.
    @inline(never)
    private static func needs(_ use: BoolUse, _ v: Value) -> SagaError {
        switch use {
        case .not:
            SagaError.typeError(
                "'!' needs a bool, got \(v.kindName)"
                    + (v == .null ? "; to ask whether there is no value, write 'x == null'" : ""))
        case .operator(let op): SagaError.typeError("'\(op.rawValue)' needs bools, got \(v.kindName)")
        case .condition:
            SagaError.typeError(
                "a condition must be a bool, got \(v.kindName)"
                    + (v == .null ? "; to ask whether there is a value, write 'x != null'" : ""))
        }
    }

    /// What a condition's value means: it must be a bool.
    static func truth(_ v: Value) throws(SagaError) -> Bool {
        guard case .bool(let b) = v else { throw needs(.condition, v) }
        return b
    }

    /// `a op b` for an operator that evaluates both sides (not `&&`, `||`, `??`): what
    /// compiled code (``Code``) uses.
    func apply(_ op: BinaryOperator, _ a: Value, _ b: Value) throws(SagaError) -> Value {
        if case .int(let x) = a, case .int(let y) = b, let result = Self.integerBinary(op, x, y) { return result }
        return try applyOperator(op, a, b)
    }

    /// `a op b` past the integer case, through `Value`'s operators: shared by the evaluator
    /// and compiled code, so that they give the same values and errors.
    private func applyOperator(_ op: BinaryOperator, _ a: Value, _ b: Value) throws(SagaError) -> Value {
        switch op {
        case .add: return try checkLength(try Value.add(a, b))
        case .subtract: return try Value.subtract(a, b)
        case .multiply: return try Value.multiply(a, b)
        case .divide: return try Value.divide(a, b)
        case .remainder: return try Value.remainder(a, b)
        case .equal: return .bool(a == b)
        case .notEqual: return .bool(a != b)
        case .less: return .bool(try Value.less(a, b))
        case .lessEqual: return .bool(try Value.lessOrEqual(a, b))
        case .greater: return .bool(try Value.less(b, a))
        case .greaterEqual: return .bool(try Value.lessOrEqual(b, a))
        case .and, .or, .coalesce: return .null
        }
    }

    /// `x op y` on two integers, as `Value`'s operators give it, or `nil` for what those
    /// operators must decide (an overflow's error, a division, a remainder by zero): the common loop counter and
    /// comparison without a call into them and its checks.
    @inline(__always)
    static func integerBinary(_ op: BinaryOperator, _ x: Int, _ y: Int) -> Value? {
        switch op {
        case .add:
            let (r, overflow) = x.addingReportingOverflow(y)
            return overflow ? nil : .int(r)
        case .subtract:
            let (r, overflow) = x.subtractingReportingOverflow(y)
            return overflow ? nil : .int(r)
        case .multiply:
            let (r, overflow) = x.multipliedReportingOverflow(by: y)
            return overflow ? nil : .int(r)
        case .equal: return .bool(x == y)
        case .notEqual: return .bool(x != y)
        case .less: return .bool(x < y)
        case .lessEqual: return .bool(x <= y)
        case .greater: return .bool(x > y)
        case .greaterEqual: return .bool(x >= y)
        case .remainder: return integerRemainder(x, y)
        case .divide, .and, .or, .coalesce: return nil
        }
    }

    /// `x % y` as `Value.remainder` gives it: by zero is an error (left to it: `nil`); by -1,
    /// 0 (`Int.min % -1` overflows in hardware).
    ///
    /// Out of line: inlined into ``integerBinary(_:_:_:)``, which is inlined wherever two
    /// integers meet, it would make the reducers' code bigger and slower at every action.
    @inline(never)
    private static func integerRemainder(_ x: Int, _ y: Int) -> Value? {
        if y == 0 { return nil }
        return .int(y == -1 ? 0 : x % y)
    }

    /// `base[index]`: a list by integer, a record by string, a string by integer (one
    /// character); out of range or missing gives null, as does any index of null.
    func subscriptValue(_ base: Value, _ index: Value) throws(SagaError) -> Value {
        switch (base, index) {
        case (.null, _):
            return .null
        case (.list(let items), _):
            guard let i = Evaluator.integer(index) else {
                throw SagaError.typeError("a list index must be an integer, got \(index.kindName)")
            }
            return i >= 0 && i < items.count ? items[i] : .null
        case (.record(let r), .string(let key)):
            return r[key] ?? .null
        case (.record(let r), _):
            guard let key = Self.recordKey(index) else {
                throw SagaError.typeError("a record key must be a string or a number, got \(index.kindName)")
            }
            return r[key] ?? .null
        case (.string(let s), _):
            guard let i = Evaluator.integer(index) else {
                throw SagaError.typeError("a string index must be an integer, got \(index.kindName)")
            }
            guard i >= 0, i < s.count else { return .null }
            return .string(String(s[s.index(s.startIndex, offsetBy: i)]))
        default:
            throw SagaError.typeError("cannot index a \(base.kindName)")
        }
    }

    /// The record key a number index names, as JavaScript names it: its text (`r[7]` is
    /// `r["7"]`, `r[1.5]` is `r["1.5"]`); the string itself; `nil` for anything else.
    static func recordKey(_ index: Value) -> String? {
        switch index {
        case .string(let key): return key
        case .int(let i): return String(i)
        case .double(let d) where d.isFinite: return Value.double(d).canonicalJSON
        default: return nil
        }
    }

    /// The integer value of an integral number.
    static func integer(_ v: Value) -> Int? {
        switch v {
        case .int(let i): return i
        case .double(let d): return d.rounded() == d && abs(d) < 9e15 ? Int(d) : nil
        default: return nil
        }
    }
}
