import Testing

@testable import SagaCore

/// The operators (see “Operators” in Sagas/README.md), row by row: what each kind combination
/// gives, and the run-time errors for the others.
@Suite struct ValueOperatorTests {
    /// The error an operation throws, or `nil` if it succeeds.
    private func failure<T>(_ op: @autoclosure () throws(SagaError) -> T) -> SagaError? {
        do {
            _ = try op()
            return nil
        } catch {
            return error
        }
    }

    /// `value` is exactly `.int(expected)`, not merely equal to it.
    private func isInt(_ value: Value, _ expected: Int) -> Bool {
        if case .int(let i) = value { return i == expected }
        return false
    }

    /// `value` is exactly `.double(expected)`.
    private func isDouble(_ value: Value, _ expected: Double) -> Bool {
        if case .double(let d) = value { return d == expected }
        return false
    }

    @Test func addingNumbersKeepsIntegersUntilADoubleJoinsIn() throws {
        #expect(isInt(try Value.add(2, 3), 5))
        #expect(isDouble(try Value.add(2, 0.5), 2.5))
        #expect(isDouble(try Value.add(0.5, 2), 2.5))
        #expect(isDouble(try Value.add(0.25, 0.5), 0.75))
        #expect(isInt(try Value.add(-7, 7), 0))
    }

    @Test func addJoinsStringsListsAndRecords() throws {
        #expect(try Value.add("ab", "cd") == "abcd")
        #expect(try Value.add([1, 2], [3]) == [1, 2, 3])
        #expect(try Value.add([], []) == [])
        #expect(try Value.add(["a": 1, "b": 2], ["b": 3, "c": 4]) == ["a": 1, "b": 3, "c": 4])
        #expect(try Value.add(["a": 1], [:]) == ["a": 1])
    }

    @Test func addingMixedKindsIsATypeError() {
        #expect(failure(try Value.add("a", 1)) == .typeError("cannot add string and number"))
        #expect(failure(try Value.add(1, "a")) == .typeError("cannot add number and string"))
        #expect(failure(try Value.add([1], ["a": 1])) == .typeError("cannot add list and record"))
        #expect(failure(try Value.add(nil, 1)) == .typeError("cannot add null and number"))
        #expect(failure(try Value.add(true, true)) == .typeError("cannot add bool and bool"))
        let task = Value.handle(Handle(kind: .task, id: 1))
        #expect(failure(try Value.add(task, 1)) == .typeError("cannot add task and number"))
    }

    @Test func subtractMultiplyAndNegateWorkOnNumbersOnly() throws {
        #expect(isInt(try Value.subtract(10, 4), 6))
        #expect(isDouble(try Value.subtract(10, 0.5), 9.5))
        #expect(isInt(try Value.multiply(6, 7), 42))
        #expect(isDouble(try Value.multiply(1.5, 2), 3))
        #expect(isInt(try Value.negate(5), -5))
        #expect(isDouble(try Value.negate(2.5), -2.5))
        #expect(failure(try Value.subtract("a", 1)) == .typeError("cannot subtract number from string"))
        #expect(failure(try Value.multiply("ab", 2)) == .typeError("cannot multiply string by number"))
        #expect(failure(try Value.negate("a")) == .typeError("cannot negate string"))
        #expect(failure(try Value.subtract([1], [1])) == .typeError("cannot subtract list from list"))
    }

    @Test func integerOverflowIsAnArithmeticError() {
        let overflow = SagaError.arithmetic("integer overflow")
        #expect(failure(try Value.add(.int(Int.max), 1)) == overflow)
        #expect(failure(try Value.subtract(.int(Int.min), 1)) == overflow)
        #expect(failure(try Value.multiply(.int(Int.max / 2 + 1), 2)) == overflow)
        #expect(failure(try Value.negate(.int(Int.min))) == overflow)
        #expect(failure(try Value.divide(.int(Int.min), -1)) == overflow)
        #expect(overflow.kind == "ArithmeticError")
    }

    @Test func doublesThatLeaveTheFiniteRangeAreAnArithmeticError() {
        let outOfRange = SagaError.arithmetic("number out of range")
        #expect(failure(try Value.multiply(1e308, 10)) == outOfRange)
        #expect(failure(try Value.add(1.7e308, 1.7e308)) == outOfRange)
    }

    @Test func divisionGivesAnIntegerOnlyWhenItIsExact() throws {
        #expect(isInt(try Value.divide(6, 3), 2))
        #expect(isInt(try Value.divide(-6, 3), -2))
        #expect(isDouble(try Value.divide(7, 2), 3.5))
        #expect(isDouble(try Value.divide(1, 3), 1.0 / 3.0))
        #expect(isDouble(try Value.divide(6.0, 3), 2))
        #expect(isDouble(try Value.divide(1, 0.5), 2))
        #expect(failure(try Value.divide("6", 3)) == .typeError("cannot divide string by number"))
    }

    @Test func divisionAndRemainderByZeroAreArithmeticErrors() {
        let byZero = SagaError.arithmetic("division by zero")
        #expect(failure(try Value.divide(1, 0)) == byZero)
        #expect(failure(try Value.divide(1.5, 0)) == byZero)
        #expect(failure(try Value.divide(1, 0.0)) == byZero)
        #expect(failure(try Value.remainder(1, 0)) == byZero)
        #expect(failure(try Value.remainder(1.5, 0.0)) == byZero)
    }

    @Test func remainderHasTheSignOfTheDividend() throws {
        #expect(isInt(try Value.remainder(7, 3), 1))
        #expect(isInt(try Value.remainder(-7, 3), -1))
        #expect(isInt(try Value.remainder(7, -3), 1))
        #expect(isInt(try Value.remainder(.int(Int.min), -1), 0))
        #expect(isDouble(try Value.remainder(7.5, 2), 1.5))
        #expect(isDouble(try Value.remainder(-7.5, 2), -1.5))
        #expect(failure(try Value.remainder(nil, 2)) == .typeError("cannot take the remainder of null by number"))
    }

    @Test func equalityIsDeepAndComparesNumbersByValue() {
        #expect(Value.int(1) == Value.double(1.0))
        #expect(Value.double(2.0) == Value.int(2))
        #expect(Value.int(1) != Value.double(1.5))
        #expect(Value.list([1, ["a": 2.0]]) == Value.list([1.0, ["a": 2]]))
        #expect(Value.string("1") != Value.int(1))
        #expect(Value.null != Value.bool(false))
        #expect(Value.record(Record()) != Value.list([]))
    }

    @Test func numbersCompareByValueAcrossIntegersAndDoubles() throws {
        #expect(try Value.less(1, 2))
        #expect(try !Value.less(2, 1))
        #expect(try !Value.less(2, 2))
        #expect(try Value.less(1, 1.5))
        #expect(try Value.less(1.5, 2))
        #expect(try !Value.less(2, 1.5))
        #expect(try !Value.less(1, 1.0))
        #expect(try Value.lessOrEqual(1, 1.0))
        #expect(try Value.lessOrEqual(-3, -2.5))
        #expect(try !Value.lessOrEqual(3, 2.5))
        #expect(try Value.greater(3, 2.5))
        #expect(try Value.greaterOrEqual(2.0, 2))
        // Exact even where converting the integer to a double would round it.
        #expect(try Value.less(.int(9_007_199_254_740_993), .double(9_007_199_254_740_994)))
        #expect(try Value.less(.double(9_007_199_254_740_992), .int(9_007_199_254_740_993)))
        #expect(try Value.less(.int(Int.max), .double(9_223_372_036_854_775_808)))
        #expect(try Value.less(.double(-1e300), .int(Int.min)))
    }

    @Test func stringsCompareByUnicodeScalarValue() throws {
        #expect(try Value.less("a", "b"))
        #expect(try Value.less("Z", "a"))
        #expect(try Value.less("ab", "abc"))
        #expect(try Value.less("", "a"))
        #expect(try Value.less("z", "é"))
        #expect(try Value.less("Ａ", "😀"))
        #expect(try Value.lessOrEqual("x", "x"))
        #expect(try !Value.less("b", "a"))
    }

    @Test func comparingOtherKindsIsATypeError() {
        #expect(failure(try Value.less("1", 2)) == .typeError("cannot compare string and number"))
        #expect(failure(try Value.lessOrEqual(nil, 1)) == .typeError("cannot compare null and number"))
        #expect(failure(try Value.less([1], [2])) == .typeError("cannot compare list and list"))
        #expect(failure(try Value.less(true, false)) == .typeError("cannot compare bool and bool"))
    }
}
