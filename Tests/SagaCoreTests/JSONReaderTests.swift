import Testing

@testable import SagaCore

/// The JSON reader: input lines and `parseJson` go through it, so it must take every valid
/// document and refuse every invalid one with a line and column, never a crash.
@Suite struct JSONReaderTests {
    /// The error that parsing `text` throws, or `nil` if it parses.
    private func failure(_ text: String) -> JSONError? {
        do {
            _ = try JSONReader.parse(text)
            return nil
        } catch {
            return error
        }
    }

    private func failure(bytes: [UInt8]) -> JSONError? {
        do {
            _ = try JSONReader.parse(bytes: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func readsScalars() throws {
        #expect(try JSONReader.parse("null") == .null)
        #expect(try JSONReader.parse("true") == .bool(true))
        #expect(try JSONReader.parse("false") == .bool(false))
        #expect(try JSONReader.parse(#""hi""#) == .string("hi"))
        #expect(try JSONReader.parse("  \n\t 42 \r\n") == .int(42))
    }

    @Test func integersThatFitIntStayIntegersAndEverythingElseIsDouble() throws {
        func kind(_ text: String) throws -> Value { try JSONReader.parse(text) }
        #expect(try kind("0").isInt(0))
        #expect(try kind("-0").isInt(0))
        #expect(try kind("-17").isInt(-17))
        #expect(try kind("9223372036854775807").isInt(Int.max))
        #expect(try kind("-9223372036854775808").isInt(Int.min))
        #expect(try kind("9223372036854775808").isDouble(9_223_372_036_854_775_808))
        #expect(try kind("123456789012345678901234").isDouble(1.2345678901234568e23))
        #expect(try kind("1.0").isDouble(1))
        #expect(try kind("1e3").isDouble(1000))
        #expect(try kind("1E+3").isDouble(1000))
        #expect(try kind("-2.5e-3").isDouble(-0.0025))
        #expect(try kind("0.1").isDouble(0.1))
        #expect(try kind("1e-400").isDouble(0))
    }

    @Test func readsNestedDocuments() throws {
        let text = #"{"type":"user/add","user":{"name":"Ada","tags":["a","b"],"age":36},"ok":true,"none":null}"#
        let expected: Value = [
            "type": "user/add", "user": ["name": "Ada", "tags": ["a", "b"], "age": 36], "ok": true, "none": nil,
        ]
        #expect(try JSONReader.parse(text) == expected)
        #expect(try JSONReader.parse("[]") == .list([]))
        #expect(try JSONReader.parse("{}") == .record(Record()))
        #expect(try JSONReader.parse("[ [ ] , { } ]") == [[], [:]])
    }

    @Test func unsortedKeysAreSortedAndTheLaterDuplicateWins() throws {
        let v = try JSONReader.parse(#"{"b":1,"a":2,"b":3,"c":4,"a":5}"#)
        guard case .record(let r) = v else {
            Issue.record("not a record: \(v)")
            return
        }
        #expect(r.keys == ["a", "b", "c"])
        #expect(r.values == [5, 3, 4])
        #expect(try JSONReader.parse(#"{"k":1,"k":2}"#) == ["k": 2])
        // An escaped key is the same key as its plain spelling.
        #expect(try JSONReader.parse(#"{"a":1,"b":2,"\u0061":3}"#) == ["a": 3, "b": 2])
        #expect(try JSONReader.parse(#"{"\u0062":1,"a":2,"b":3}"#) == ["a": 2, "b": 3])
    }

    @Test func largeObjectsInAnyOrderAreSortedWithTheLaterDuplicateWinning() throws {
        // Small objects are sorted as they are read, large ones at the end: check both paths.
        for size in [3, 31, 32, 33, 100] {
            var keys = (0..<size).map { "k\(1000 + $0)" }
            keys.reverse()
            let first = keys.map { "\"\($0)\":0" }
            let again = keys.map { "\"\($0)\":\(Int($0.dropFirst()) ?? -1)" }
            let text = "{" + (first + again).joined(separator: ",") + "}"
            guard case .record(let r) = try JSONReader.parse(text) else {
                Issue.record("not a record")
                continue
            }
            #expect(r.keys == keys.reversed(), "size \(size)")
            #expect(r.values == keys.reversed().map { .int(Int($0.dropFirst()) ?? -1) }, "size \(size)")
        }
    }

    @Test func decodesEveryEscape() throws {
        let text = #""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \ud83d\ude00""#
        #expect(try JSONReader.parse(text) == .string("\" \\ / \u{08} \u{0C} \n \r \t A é € 😀"))
        #expect(try JSONReader.parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func keepsNonASCIITextAsIs() throws {
        #expect(try JSONReader.parse("\"café 日本 😀\"") == .string("café 日本 😀"))
        #expect(try JSONReader.parse("{\"é\":\"😀\"}") == ["é": "😀"])
    }

    @Test func readsBytesAsWellAsStrings() throws {
        let bytes = Array(#"{"by":2}"#.utf8)
        #expect(try JSONReader.parse(bytes: bytes) == ["by": 2])
        #expect(try JSONReader.parse(bytes: bytes[...]) == ["by": 2])
        let fromRaw = try bytes.withUnsafeBytes { raw throws(JSONError) in try JSONReader.parse(bytes: raw) }
        #expect(fromRaw == ["by": 2])
    }

    @Test(arguments: [
        ("", "unexpected end of input; expected a value", 1, 1),
        ("   ", "unexpected end of input; expected a value", 1, 4),
        ("[1,]", "trailing comma in array", 1, 3),
        ("{\"a\":1,}", "trailing comma in object", 1, 7),
        ("[1 2]", "unexpected '2' in array; expected ',' or ']'", 1, 4),
        ("{\"a\" 1}", "unexpected '1' after an object key; expected ':'", 1, 6),
        ("{a:1}", "unexpected 'a' in object; expected a string key", 1, 2),
        ("{\"a\":1", "unterminated object; expected ',' or '}'", 1, 7),
        ("[1", "unterminated array; expected ',' or ']'", 1, 3),
        ("01", "leading zeros are not allowed in numbers", 1, 1),
        ("-01", "leading zeros are not allowed in numbers", 1, 1),
        ("-", "expected a digit after '-'", 1, 2),
        ("1.", "expected a digit after '.'", 1, 3),
        (".5", "unexpected '.'; expected a value", 1, 1),
        ("1e", "expected a digit in the exponent", 1, 3),
        ("+1", "unexpected '+'; expected a value", 1, 1),
        ("1e999", "number 1e999 is out of range", 1, 1),
        ("NaN", "unexpected 'N'; expected a value", 1, 1),
        ("Infinity", "unexpected 'I'; expected a value", 1, 1),
        ("tru", "unexpected 't'; expected a value", 1, 1),
        ("nul", "unexpected 'n'; expected a value", 1, 1),
        ("[1] x", "unexpected 'x' after the value", 1, 5),
        ("1 2", "unexpected '2' after the value", 1, 3),
        ("// c\n1", "unexpected '/'; expected a value", 1, 1),
        ("[1, /* c */ 2]", "unexpected '/'; expected a value", 1, 5),
        ("\"abc", "unterminated string", 1, 1),
        ("\"a\nb\"", "unescaped control character U+000A in string", 1, 3),
        ("\"\\x\"", "invalid escape 'x' in string", 1, 2),
        ("\"\\u12\"", "invalid \\u escape: expected 4 hex digits", 1, 2),
        ("\"\\ud83d\"", "lone high surrogate \\uD83D in string", 1, 2),
        ("\"\\ud83d\\u0041\"", "lone high surrogate \\uD83D in string", 1, 2),
        ("\"\\ude00\"", "lone low surrogate \\uDE00 in string", 1, 2),
        ("\"é\" é", "unexpected 'é' after the value", 1, 5),
        ("{\n  \"a\": 1,\n  \"b\": ,\n}", "unexpected ','; expected a value", 3, 8),
        ("[\n1,\n2,\n]", "trailing comma in array", 3, 2),
    ])
    func rejectsInvalidDocumentsWithLineAndColumn(text: String, message: String, line: Int, column: Int) {
        #expect(failure(text) == JSONError(message: message, line: line, column: column))
    }

    @Test func rejectsInvalidUTF8() {
        // A lone continuation byte, an overlong encoding, an encoded surrogate, a cut-off sequence.
        for bad: [UInt8] in [[0x80], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF5, 0x80, 0x80, 0x80]] {
            let doc = [UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")]
            #expect(failure(bytes: doc) == JSONError(message: "invalid UTF-8", line: 1, column: 2))
        }
        let outside = JSONError(message: "unexpected invalid UTF-8; expected a value", line: 1, column: 1)
        #expect(failure(bytes: [0xFF]) == outside)
    }

    @Test func nestingUpToTheLimitIsReadAndDeeperIsRejectedCleanly() throws {
        let limit = JSONReader.maxDepth
        let ok = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONReader.parse(ok) }
        let deep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(failure(deep) == JSONError(message: "nesting is deeper than 512 levels", line: 1, column: limit + 1))
        // Far deeper input must not overflow the stack either.
        let huge = String(repeating: "{\"a\":", count: 100_000)
        #expect(failure(huge)?.message == "nesting is deeper than 512 levels")
    }

    @Test func canonicalJSONReadsBackToTheSameValueAndText() throws {
        let docs = [
            #"{"by":2,"type":"counter/add"}"#,
            #"[1,2.5,-0.001,1e+300,"x\n\"y\"",null,true,false,{},[]]"#,
            #"{"":{"Z":[{"é":"😀"}]},"\u0001":"\u001f"}"#,
            #"{"n":9007199254740993}"#,
        ]
        for doc in docs {
            let value = try JSONReader.parse(doc)
            let canonical = value.canonicalJSON
            #expect(try JSONReader.parse(canonical) == value)
            #expect(try JSONReader.parse(canonical).canonicalJSON == canonical)
        }
        #expect(try JSONReader.parse(#" { "type" : "a" , "by" : 2.0 } "#).canonicalJSON == #"{"by":2,"type":"a"}"#)
    }

    @Test func errorsDescribeThemselvesWithTheirLocation() {
        let error = JSONError(message: "trailing comma in array", line: 2, column: 5)
        #expect(error.description == "2:5: trailing comma in array")
    }
}

extension Value {
    fileprivate func isInt(_ expected: Int) -> Bool {
        if case .int(let i) = self { return i == expected }
        return false
    }

    fileprivate func isDouble(_ expected: Double) -> Bool {
        if case .double(let d) = self { return d == expected }
        return false
    }
}
