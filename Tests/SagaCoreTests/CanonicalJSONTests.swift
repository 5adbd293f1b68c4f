import Testing

@testable import SagaCore

/// Canonical JSON (see “Canonical JSON” in Sagas/README.md): the one text form that
/// transcripts and golden files compare.
@Suite struct CanonicalJSONTests {
    @Test func scalarsAreWrittenAsJSONLiterals() {
        #expect(Value.null.canonicalJSON == "null")
        #expect(Value.bool(true).canonicalJSON == "true")
        #expect(Value.bool(false).canonicalJSON == "false")
        #expect(Value.int(0).canonicalJSON == "0")
        #expect(Value.int(7).canonicalJSON == "7")
        #expect(Value.int(-42).canonicalJSON == "-42")
        #expect(Value.int(1_234_567_890).canonicalJSON == "1234567890")
        #expect(Value.int(Int.max).canonicalJSON == "9223372036854775807")
        #expect(Value.int(Int.min).canonicalJSON == "-9223372036854775808")
    }

    @Test func integralDoublesWithinTwoToThe53AreWrittenAsIntegers() {
        #expect(Value.double(2.0).canonicalJSON == "2")
        #expect(Value.double(-3.0).canonicalJSON == "-3")
        #expect(Value.double(-0.0).canonicalJSON == "0")
        #expect(Value.double(9_007_199_254_740_992).canonicalJSON == "9007199254740992")
        #expect(Value.double(-9_007_199_254_740_992).canonicalJSON == "-9007199254740992")
        // Beyond 2^53 a double is written as JavaScript writes it: plain digits below 1e21.
        #expect(Value.double(9_007_199_254_740_994).canonicalJSON == "9007199254740994")
        #expect(Value.double(1e16).canonicalJSON == "10000000000000000")
        #expect(Value.double(1e20).canonicalJSON == "100000000000000000000")
        #expect(Value.double(1e21).canonicalJSON == "1e+21")
    }

    /// The shortest digits that read back, laid out as ECMAScript's Number-to-String.
    @Test func otherDoublesUseTheShortestFormThatReadsBack() {
        #expect(Value.double(0.1).canonicalJSON == "0.1")
        #expect(Value.double(2.5).canonicalJSON == "2.5")
        #expect(Value.double(-0.75).canonicalJSON == "-0.75")
        #expect(Value.double(1e300).canonicalJSON == "1e+300")
        #expect(Value.double(1e-5).canonicalJSON == "0.00001")
        #expect(Value.double(2.5e-5).canonicalJSON == "0.000025")
        #expect(Value.double(1e-6).canonicalJSON == "0.000001")
        #expect(Value.double(1e-7).canonicalJSON == "1e-7")
        #expect(Value.double(-1.25e-9).canonicalJSON == "-1.25e-9")
        #expect(Value.double(123.456).canonicalJSON == "123.456")
        #expect(Value.double(1.5e300).canonicalJSON == "1.5e+300")
        #expect(Value.double(1.5e-7).canonicalJSON == "1.5e-7")
        #expect(Value.double(0.0001).canonicalJSON == "0.0001")
        #expect(Value.double(1.7976931348623157e308).canonicalJSON == "1.7976931348623157e+308")
        #expect(Value.double(.leastNonzeroMagnitude).canonicalJSON == "5e-324")
        for d in [
            0.1, 1e300, 1e-5, 1.5e-7, 123.456, .pi, 1e21, 4.35, 1e16 + 2, 1e20, 2.5e-5, -1e-7, .leastNonzeroMagnitude,
        ] {
            let text = Value.double(d).canonicalJSON
            #expect(Double(text) == d, "\(text) does not read back to \(d)")
        }
    }

    @Test func nonFiniteDoublesAreWrittenAsNull() {
        #expect(Value.double(.infinity).canonicalJSON == "null")
        #expect(Value.double(-.infinity).canonicalJSON == "null")
        #expect(Value.double(.nan).canonicalJSON == "null")
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
        #expect(Value.string("").canonicalJSON == #""""#)
        #expect(Value.string("plain").canonicalJSON == #""plain""#)
        #expect(Value.string("say \"hi\"").canonicalJSON == #""say \"hi\"""#)
        #expect(Value.string("a\\b").canonicalJSON == #""a\\b""#)
        #expect(Value.string("l1\nl2").canonicalJSON == #""l1\nl2""#)
        #expect(Value.string("\t\r").canonicalJSON == #""\t\r""#)
        #expect(Value.string("\u{08}\u{0C}").canonicalJSON == #""\b\f""#)
        #expect(Value.string("\u{00}\u{01}\u{1F}").canonicalJSON == #""\u0000\u0001\u001f""#)
        #expect(Value.string("\u{7F}").canonicalJSON == "\"\u{7F}\"")
        #expect(Value.string("/").canonicalJSON == #""/""#)
    }

    @Test func everyControlCharacterIsEscapedAndReadsBack() throws {
        for code in 0..<0x20 {
            let s = String(Character(Unicode.Scalar(UInt8(code))))
            let text = Value.string(s).canonicalJSON
            #expect(text.utf8.allSatisfy { $0 >= 0x20 }, "U+\(code) written raw")
            #expect(try JSONReader.parse(text) == .string(s))
        }
    }

    @Test func nonASCIITextIsKeptAsIs() {
        #expect(Value.string("café ☕️ 😀").canonicalJSON == "\"café ☕️ 😀\"")
        #expect(Value.string("日本語").canonicalJSON == "\"日本語\"")
    }

    @Test func recordKeysAreSortedByUnicodeScalarValue() {
        let r: Value = ["type": "counter/add", "by": 2]
        #expect(r.canonicalJSON == #"{"by":2,"type":"counter/add"}"#)
        // Upper case before lower case, ASCII before Latin-1 before emoji.
        let mixed: Value = ["é": 1, "z": 2, "Z": 3, "😀": 4, "a": 5, "": 6]
        #expect(mixed.canonicalJSON == #"{"":6,"Z":3,"a":5,"z":2,"é":1,"😀":4}"#)
        // U+FF21 (fullwidth A) sorts before U+1F600 by scalar value, as its UTF-8 bytes do.
        let wide: Value = ["😀": 1, "Ａ": 2]
        #expect(wide.canonicalJSON == #"{"Ａ":2,"😀":1}"#)
    }

    @Test func nestedValuesHaveNoWhiteSpace() {
        let v: Value = [
            "list": [1, 2.5, "x", nil, true, [], [:]],
            "inner": ["b": ["k": "v"], "a": []],
        ]
        #expect(v.canonicalJSON == #"{"inner":{"a":[],"b":{"k":"v"}},"list":[1,2.5,"x",null,true,[],{}]}"#)
        #expect(Value.list([]).canonicalJSON == "[]")
        #expect(Value.record(Record()).canonicalJSON == "{}")
    }

    @Test func largeValuesAreWrittenWhole() throws {
        // Well past the writer's first buffer, so it must grow and keep what it wrote.
        let items = (0..<500).map { Value.string("item \($0) \"q\"") }
        let text = Value.list(items).canonicalJSON
        let expected = "[" + (0..<500).map { #""item \#($0) \"q\"""# }.joined(separator: ",") + "]"
        #expect(text == expected)
        #expect(try JSONReader.parse(text) == .list(items))
        var bytes: [UInt8] = []
        Value.list(items).writeCanonicalJSON(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func handlesAreWrittenAsReadableStrings() {
        #expect(Value.handle(Handle(kind: .task, id: 3)).canonicalJSON == #""<task 3>""#)
        #expect(Value.handle(Handle(kind: .channel, id: 12)).canonicalJSON == #""<channel 12>""#)
        #expect(Value.list([.handle(Handle(kind: .task, id: 1))]).canonicalJSON == #"["<task 1>"]"#)
    }

    @Test func displayStringShowsStringsAsIsAndAnythingElseAsJSON() {
        #expect(Value.string("count is 2").displayString == "count is 2")
        #expect(Value.string("a\"b").displayString == "a\"b")
        #expect(Value.int(2).displayString == "2")
        #expect(Value.double(2.0).displayString == "2")
        #expect(Value.null.displayString == "null")
        #expect(Value.list(["a", 1]).displayString == #"["a",1]"#)
        #expect((["k": "v"] as Value).displayString == #"{"k":"v"}"#)
    }

    @Test func writingIntoABufferAppends() {
        var text = "action "
        (["by": 2] as Value).writeCanonicalJSON(into: &text)
        #expect(text == #"action {"by":2}"#)
        var bytes = Array("state ".utf8)
        (["ok": true] as Value).writeCanonicalJSON(into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"state {"ok":true}"#)
    }

    @Test func sagaErrorsWithoutAMessageShowTheirJSON() {
        let e = SagaError(value: ["code": 7])
        #expect(e.message == #"{"code":7}"#)
    }
}
