import Testing

@testable import SagaCore

/// The reader's fast paths for small input: plain ASCII strings found eight bytes at a time
/// and made straight from the input, and records of one entry.
///
/// They must read exactly what the general paths read, wherever a string falls in the input.
@Suite struct JSONReaderFastPathTests {
    private func parse(_ text: String) -> Result<Value, JSONError> {
        Result { () throws(JSONError) -> Value in try JSONReader.parse(text) }
    }

    @Test func smallStringsMadeFromBytesAreTheLibrarysOwn() throws {
        // This platform lays small strings out as `SmallASCII` expects; the rest of this test
        // would be moot otherwise.
        #expect(SmallASCII.isAvailable)
        let text = Array("{\"abcdefghijklmnopqrstuvwxyz\"}".utf8)
        try text.withUnsafeBufferPointer { buffer in
            for start in 0..<text.count {
                for end in start...min(text.count, start + SmallASCII.capacity) {
                    let made = SmallASCII.string(in: buffer, start..<end)
                    let expected = String(decoding: text[start..<end], as: UTF8.self)
                    #expect(made == expected)
                    #expect(Array(made.utf8) == Array(text[start..<end]))
                    #expect(made.hashValue == expected.hashValue)
                    #expect(made + "é" == expected + "é")
                    let bits = unsafeBitCast(made, to: (UInt64, UInt64).self)
                    let library = unsafeBitCast(expected, to: (UInt64, UInt64).self)
                    try #require(bits == library, "\(start)..<\(end)")
                }
            }
        }
    }

    @Test func readsEveryStringWithWhatEndsAPlainRunAtEveryPlace() throws {
        // (as written in JSON, as read): what sends the scan to the general path, or not.
        let specials: [(String, String)] = [
            ("", ""), ("~", "~"), ("\u{7F}", "\u{7F}"), (#"\""#, "\""), (#"\\"#, "\\"), (#"\n"#, "\n"),
            (#"\u00e9"#, "é"), ("é", "é"), ("€", "€"), ("😀", "😀"), (" ", " "),
        ]
        for before in 0..<20 {
            for (written, read) in specials {
                for after in [0, 1, 7, 8, 9, 16] {
                    let body = String(repeating: "a", count: before) + written + String(repeating: "b", count: after)
                    let expected = String(repeating: "a", count: before) + read + String(repeating: "b", count: after)
                    // At the end of the input, and followed by more (where a word fits).
                    #expect(try JSONReader.parse("\"\(body)\"") == .string(expected))
                    #expect(
                        try JSONReader.parse("{\"\(body)\":\"\(body)\",\"!\":[]}")
                            == .record(Record([(expected, .string(expected)), ("!", .list([]))])))
                }
            }
        }
    }

    @Test func rejectsAControlCharacterOrInvalidUTF8AtEveryPlace() throws {
        for before in 0..<20 {
            for after in [0, 9] {
                let tail = String(repeating: "b", count: after)
                let body = String(repeating: "a", count: before) + "\u{1}" + tail
                let control = JSONError(
                    message: "unescaped control character U+0001 in string", line: 1, column: before + 3)
                #expect(parse("[\"\(body)\"]").failure == control)
                var bytes = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: before)
                bytes += [0xFF] + Array(tail.utf8) + Array("\"]".utf8)
                let invalid = Result { () throws(JSONError) -> Value in try JSONReader.parse(bytes: bytes) }
                #expect(invalid.failure == JSONError(message: "invalid UTF-8", line: 1, column: before + 3))
            }
            let unterminated = "[\"" + String(repeating: "a", count: before)
            #expect(parse(unterminated).failure == JSONError(message: "unterminated string", line: 1, column: 2))
        }
    }

    @Test func readsRecordsOfOneEntryAsOthers() throws {
        #expect(try JSONReader.parse(#"{"type":"a"}"#) == ["type": "a"])
        #expect(try JSONReader.parse(" { \"k\" : [1, {\"x\" :{}} ] \n} ") == ["k": [1, ["x": [:]]]])
        #expect(try JSONReader.parse(#"{"a":{"b":{"c":null}}}"#) == ["a": ["b": ["c": nil]]])
        #expect(try JSONReader.parse(#"{"a":1,"a":2}"#) == ["a": 2])
        #expect(parse(#"{"a":1 x}"#).failure?.message == "unexpected 'x' in object; expected ',' or '}'")
        #expect(
            parse(#"{"a":1 "#).failure
                == JSONError(message: "unterminated object; expected ',' or '}'", line: 1, column: 8))
        #expect(parse(#"{"a":1,}"#).failure == JSONError(message: "trailing comma in object", line: 1, column: 7))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
