import Testing

@testable import SagaCore

/// The built-in pure functions (see “Built-in functions” in Sagas/README.md): each one's
/// results, and the errors that name it.
@Suite struct BuiltinTests {
    private func call(_ f: Builtin, _ args: Value..., now: Int = 0) throws(SagaError) -> Value {
        try f.apply(args, now: now)
    }

    /// The error a call throws, or `nil` if it succeeds.
    private func failure(_ f: Builtin, _ args: Value...) -> SagaError? {
        do {
            _ = try f.apply(args, now: 0)
            return nil
        } catch {
            return error
        }
    }

    private func isInt(_ value: Value, _ expected: Int) -> Bool {
        if case .int(let i) = value { return i == expected }
        return false
    }

    @Test func everyBuiltinIsNamedAsInTheContract() {
        let names = Builtin.allCases.map(\.rawValue)
        #expect(
            names == [
                "len", "keys", "values", "has", "contains", "str", "int", "number", "abs", "min", "max", "floor",
                "range", "slice", "split", "join", "lower", "upper", "json", "parseJson", "now",
            ])
        #expect(Builtin(rawValue: "parseJson") == .parseJson)
        #expect(Builtin(rawValue: "print") == nil)
    }

    @Test func arityIsCheckedAndNamed() {
        #expect(Builtin.len.arity == 1...1)
        #expect(Builtin.slice.arity == 2...3)
        #expect(Builtin.now.arity == 0...0)
        #expect(Builtin.has.arity == 2...2)
        #expect(failure(.len) == .typeError("len expects 1 argument, got 0"))
        #expect(failure(.min, 1) == .typeError("min expects 2 arguments, got 1"))
        #expect(failure(.slice, [1]) == .typeError("slice expects 2 to 3 arguments, got 1"))
        #expect(failure(.now, 1) == .typeError("now expects 0 arguments, got 1"))
    }

    @Test func lenCountsCharactersElementsOrKeys() throws {
        #expect(try call(.len, "abc") == 3)
        #expect(try call(.len, "") == 0)
        #expect(try call(.len, "👨‍👩‍👧é") == 2)
        #expect(try call(.len, [1, 2, 3, 4]) == 4)
        #expect(try call(.len, ["a": 1, "b": 2]) == 2)
        #expect(failure(.len, 5) == .typeError("len expects a string, list or record, got number"))
        #expect(failure(.len, nil) == .typeError("len expects a string, list or record, got null"))
    }

    @Test func keysAreSortedAndValuesFollowTheirOrder() throws {
        let r: Value = ["b": 2, "a": 1, "é": 3, "Z": 0]
        #expect(try call(.keys, r) == ["Z", "a", "b", "é"])
        #expect(try call(.values, r) == [0, 1, 2, 3])
        #expect(try call(.keys, [:]) == [])
        #expect(failure(.keys, [1]) == .typeError("keys expects a record, got list"))
        #expect(failure(.values, "x") == .typeError("values expects a record, got string"))
    }

    @Test func hasLooksForAKeyAndIsFalseOnNull() throws {
        #expect(try call(.has, ["t": true], "t") == true)
        #expect(try call(.has, ["t": nil], "t") == true)
        #expect(try call(.has, ["t": true], "n") == false)
        #expect(try call(.has, nil, "n") == false)
        #expect(failure(.has, ["t": 1], 1) == .typeError("has expects a string key, got number"))
        #expect(failure(.has, [1], "a") == .typeError("has expects a record, got list"))
    }

    @Test func containsUsesDeepEqualityInListsAndSubstringsInStrings() throws {
        #expect(try call(.contains, [1, ["a": [2]]], ["a": [2.0]]) == true)
        #expect(try call(.contains, [1, 2], 1.0) == true)
        #expect(try call(.contains, [1, 2], "1") == false)
        #expect(try call(.contains, "hello world", "o w") == true)
        #expect(try call(.contains, "hello", "") == true)
        #expect(try call(.contains, "héllo", "él") == true)
        #expect(try call(.contains, "hello", "hello!") == false)
        #expect(try call(.contains, nil, 1) == false)
        #expect(failure(.contains, "abc", 1) == .typeError("contains expects a string to find in a string, got number"))
        #expect(failure(.contains, ["a": 1], "a") == .typeError("contains expects a list or string, got record"))
    }

    @Test func strShowsStringsAsIsAndOthersAsCanonicalJSON() throws {
        #expect(try call(.str, "x y") == "x y")
        #expect(try call(.str, 2.0) == "2")
        #expect(try call(.str, 2.5) == "2.5")
        #expect(try call(.str, nil) == "null")
        #expect(try call(.str, ["b": [1], "a": "s"]) == #"{"a":"s","b":[1]}"#)
    }

    @Test func intTruncatesNumbersAndParsesIntegerStrings() throws {
        #expect(isInt(try call(.int, 3.9), 3))
        #expect(isInt(try call(.int, -3.9), -3))
        #expect(isInt(try call(.int, 7), 7))
        #expect(isInt(try call(.int, "42"), 42))
        #expect(isInt(try call(.int, " -17\n"), -17))
        #expect(isInt(try call(.int, "+5"), 5))
        #expect(isInt(try call(.int, "-9223372036854775808"), Int.min))
        #expect(failure(.int, "3.5") == .typeError(#"int cannot convert "3.5" to an integer"#))
        #expect(failure(.int, "abc") == .typeError(#"int cannot convert "abc" to an integer"#))
        #expect(failure(.int, "") == .typeError(#"int cannot convert "" to an integer"#))
        #expect(failure(.int, "-") == .typeError(#"int cannot convert "-" to an integer"#))
        #expect(
            failure(.int, "9223372036854775808")
                == .arithmetic(#"int: "9223372036854775808" is out of the integer range"#))
        #expect(failure(.int, 1e30) == .arithmetic("int: 1e+30 is out of the integer range"))
        #expect(failure(.int, true) == .typeError("int expects a number or string, got bool"))
    }

    @Test func numberParsesDecimalStrings() throws {
        #expect(isInt(try call(.number, "12"), 12))
        #expect(try call(.number, "2.5") == 2.5)
        #expect(try call(.number, " -1e3 ") == -1000.0)
        #expect(try call(.number, ".5") == 0.5)
        #expect(try call(.number, "5.") == 5.0)
        #expect(try call(.number, "123456789012345678901234") == 1.2345678901234568e23)
        #expect(try call(.number, 2.5) == 2.5)
        for bad in ["", "abc", "1.2.3", "0x10", "inf", "nan", "1e", ".", "1_000", "- 1"] {
            let quoted = Value.string(bad).canonicalJSON
            #expect(failure(.number, .string(bad)) == .typeError("number cannot convert \(quoted) to a number"))
        }
        #expect(failure(.number, "1e999") == .arithmetic(#"number: "1e999" is out of range"#))
        #expect(failure(.number, nil) == .typeError("number expects a number or string, got null"))
    }

    @Test func absFloorMinAndMax() throws {
        #expect(isInt(try call(.abs, -4), 4))
        #expect(try call(.abs, -2.5) == 2.5)
        #expect(failure(.abs, .int(Int.min)) == .arithmetic("integer overflow"))
        #expect(failure(.abs, "1") == .typeError("abs expects a number, got string"))
        #expect(isInt(try call(.floor, 2.7), 2))
        #expect(isInt(try call(.floor, -2.2), -3))
        #expect(isInt(try call(.floor, 5), 5))
        #expect(failure(.floor, 1e300) == .arithmetic("floor: 1e+300 is out of the integer range"))
        #expect(failure(.floor, "2") == .typeError("floor expects a number, got string"))
        #expect(try call(.min, 3, 2.5) == 2.5)
        #expect(try call(.max, 3, 2.5) == 3)
        #expect(try call(.min, "b", "a") == "a")
        #expect(try call(.max, "b", "a") == "b")
        // On a tie the first argument wins, so its kind is kept.
        #expect(isInt(try call(.min, 1, 1.0), 1))
        #expect(failure(.min, 1, "a") == .typeError("min expects two numbers or two strings, got number and string"))
        #expect(failure(.max, [1], [2]) == .typeError("max expects two numbers or two strings, got list and list"))
    }

    @Test func rangeCountsFromZero() throws {
        #expect(try call(.range, 4) == [0, 1, 2, 3])
        #expect(try call(.range, 0) == [])
        #expect(try call(.range, -3) == [])
        #expect(try call(.range, 2.0) == [0, 1])
        #expect(failure(.range, 2.5) == .typeError("range expects an integer count, got 2.5"))
        #expect(failure(.range, "3") == .typeError("range expects an integer count, got string"))
        #expect(
            failure(.range, 10_000_001)
                == SagaError(kind: "RangeError", message: "range: 10000001 is more than 10000000 elements"))
    }

    @Test func sliceBehavesLikeJavaScripts() throws {
        let xs: Value = [0, 1, 2, 3, 4]
        #expect(try call(.slice, xs, 1, 3) == [1, 2])
        #expect(try call(.slice, xs, 2) == [2, 3, 4])
        #expect(try call(.slice, xs, 2, nil) == [2, 3, 4])
        #expect(try call(.slice, xs, -2) == [3, 4])
        #expect(try call(.slice, xs, 1, -1) == [1, 2, 3])
        #expect(try call(.slice, xs, -100, 100) == xs)
        #expect(try call(.slice, xs, 3, 1) == [])
        #expect(try call(.slice, xs, 9) == [])
        #expect(try call(.slice, "héllo", 1, 3) == "él")
        #expect(try call(.slice, "héllo", -3) == "llo")
        #expect(try call(.slice, "😀ab", 0, 1) == "😀")
        #expect(failure(.slice, 5, 0) == .typeError("slice expects a list or string, got number"))
        #expect(failure(.slice, xs, "1") == .typeError("slice expects an integer start index, got string"))
        #expect(failure(.slice, xs, 0, 1.5) == .typeError("slice expects an integer end index, got 1.5"))
    }

    @Test func splitAndJoin() throws {
        #expect(try call(.split, "a,b,,c", ",") == ["a", "b", "", "c"])
        #expect(try call(.split, "a,b,", ",") == ["a", "b", ""])
        #expect(try call(.split, "", ",") == [""])
        #expect(try call(.split, "a--b--c", "--") == ["a", "b", "c"])
        #expect(try call(.split, "né😀", "") == ["n", "é", "😀"])
        #expect(try call(.split, "x→y", "→") == ["x", "y"])
        #expect(failure(.split, 1, ",") == .typeError("split expects a string, got number"))
        #expect(failure(.split, "a", nil) == .typeError("split expects a string separator, got null"))
        #expect(try call(.join, ["a", 1, nil, ["k": 2.0]], ", ") == #"a, 1, null, {"k":2}"#)
        #expect(try call(.join, [], "-") == "")
        #expect(failure(.join, "ab", "") == .typeError("join expects a list, got string"))
        #expect(failure(.join, ["a"], 1) == .typeError("join expects a string separator, got number"))
    }

    @Test func lowerAndUpper() throws {
        #expect(try call(.lower, "HeLLo É") == "hello é")
        #expect(try call(.upper, "straße") == "STRASSE")
        #expect(failure(.lower, 1) == .typeError("lower expects a string, got number"))
        #expect(failure(.upper, ["a"]) == .typeError("upper expects a string, got list"))
    }

    @Test func jsonAndParseJsonRoundTrip() throws {
        let v: Value = ["type": "a", "list": [1, 2.5, "x\n"]]
        let text = try call(.json, v)
        #expect(text == #"{"list":[1,2.5,"x\n"],"type":"a"}"#)
        #expect(try call(.parseJson, text) == v)
        #expect(try call(.json, "s") == #""s""#)
        let message = "parseJson: unexpected '}'; expected a value at line 2, column 5"
        #expect(failure(.parseJson, "{\n\"a\":}") == SagaError(kind: "ParseError", message: message))
        #expect(failure(.parseJson, 1) == .typeError("parseJson expects a string, got number"))
    }

    @Test func nowReturnsTheSchedulerClock() throws {
        #expect(try call(.now, now: 1_500) == 1_500)
        #expect(try call(.now) == 0)
    }
}
