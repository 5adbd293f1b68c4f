import Foundation
import SagaCore
import Testing

@testable import SagaRuntime

/// Reading outside actions from a file or a pipe: line numbers, line breaks, blank lines,
/// overlong lines and JSON errors, wherever a line falls against the reader's 64 KiB reads.
@Suite struct InputSourceTests {
    /// The size of one `read(2)` of the line reader.
    static let chunk = 64 << 10

    /// What `source` yields, one entry per call of `next()`, until its end: an action as
    /// `: JSON`, or `MS: JSON` when timed, an error as `error N: message (column C)`.
    private func transcript(_ source: InputSource, calls: Int = 100) -> [String] {
        var out: [String] = []
        for _ in 0..<calls {
            do throws(InputError) {
                guard let line = try source.next() else { return out }
                out.append("\(line.at.map(String.init) ?? ""): \(line.action.canonicalJSON)")
            } catch {
                out.append(
                    "error \(error.line): \(error.message)" + (error.column > 0 ? " (column \(error.column))" : ""))
            }
        }
        return out
    }

    /// The transcript of a file holding `bytes`.
    private func transcript(ofFile bytes: [UInt8]) throws -> [String] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("input-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let source = try #require(InputSource.file(path))
        return transcript(source)
    }

    private func transcript(ofFile text: String) throws -> [String] {
        try transcript(ofFile: Array(text.utf8))
    }

    @Test func readsActionsAndTimedActionsWithTheirLineNumbers() throws {
        let text = """
            {"type":"a"}
            {"at": 5, "action": {"type":"b","by":2}}
            {"by":1,"type":"c","a":[1,2.5,null,true]}

            """
        #expect(
            try transcript(ofFile: text) == [
                #": {"type":"a"}"#, #"5: {"by":2,"type":"b"}"#, #": {"a":[1,2.5,null,true],"by":1,"type":"c"}"#,
            ])
    }

    @Test func skipsBlankLinesButCountsThem() throws {
        // A line of carriage returns alone is blank too.
        let text = "\n  \t\n{\"type\":\"a\"}\n\r\n\r\r\n \r\t\n{\"type\":1}\n"
        #expect(try transcript(ofFile: text) == [#": {"type":"a"}"#, "error 7: 'type' must be a string"])
    }

    @Test func stripsOneCarriageReturnBeforeTheLineBreak() throws {
        // The column of the error shows how many carriage returns are left.
        let text = "{\"type\":\"a\"}\r\n{\r\r\n{\"type\":\"c\"}\r\n{\r"
        let lines = try transcript(ofFile: text)
        #expect(
            lines == [
                #": {"type":"a"}"#, "error 2: unterminated object; expected a string key (column 3)",
                #": {"type":"c"}"#, "error 4: unterminated object; expected a string key (column 2)",
            ])
    }

    @Test func readsALastLineWithoutALineBreak() throws {
        #expect(
            try transcript(ofFile: "{\"type\":\"a\"}\n{\"type\":\"b\"}") == [#": {"type":"a"}"#, #": {"type":"b"}"#])
        #expect(try transcript(ofFile: "{\"type\":\"a\"}\n  ") == [#": {"type":"a"}"#])
        #expect(try transcript(ofFile: "") == [])
    }

    @Test func namesTheLineAndColumnOfAJSONError() throws {
        let text =
            "{\"type\":\"a\"}\n{\"type\":\"é\",}\n[1]\n{\"x\":1}\n{\"at\":-1,\"action\":{\"type\":\"a\"}}\n"
            + "{\"at\":1,\"action\":{\"type\":\"a\"},\"extra\":2}\n{\"at\":1e20,\"action\":{\"type\":\"a\"}}\n"
        let lines = try transcript(ofFile: text)
        #expect(
            lines == [
                #": {"type":"a"}"#, "error 2: trailing comma in object (column 12)",
                "error 3: expected a JSON record, got list",
                #"error 4: expected an action with a string 'type', {"at": MS, "action": {…}}, "#
                    + #"or {"channel": NAME, "value": …}"#,
                "error 5: 'at' must be a whole number of milliseconds ≥ 0",
                "error 6: a timed line has no 'extra': it has 'at' and 'action' (the action's fields go in it)",
                "error 7: 'at' is too large: the clock counts milliseconds below 2^63",
            ])
        #expect(try transcript(ofFile: [0x7B, 0x22, 0xFF, 0x22, 0x7D]) == ["error 1: invalid UTF-8 (column 3)"])
    }

    @Test func aLaterDuplicateKeyWins() throws {
        #expect(try transcript(ofFile: #"{"type":"a","type":"b"}"#) == [#": {"type":"b"}"#])
        #expect(try transcript(ofFile: #"{"type":1,"type":"b"}"#) == [#": {"type":"b"}"#])
    }

    @Test func readsLinesThatSpanTheReadsOfTheFile() throws {
        // Every place a line can fall against a read: its start, its middle, its line break
        // and its carriage return on either side of the boundary.
        for shift in -3...3 {
            let padding = String(repeating: " ", count: InputSourceTests.chunk - 20 + shift)
            let long = "{\"type\":\"a\",\"pad\":\"\(padding)\"}"
            let text = long + "\r\n{\"type\":\"b\"}\r\n" + "{\"type\":\"c\"}"
            let lines = try transcript(ofFile: text)
            #expect(lines.count == 3)
            #expect(lines.dropFirst() == [#": {"type":"b"}"#, #": {"type":"c"}"#])
            #expect(lines.first == ": {\"pad\":\"\(padding)\",\"type\":\"a\"}")
        }
    }

    @Test func readsALineLongerThanSeveralReads() throws {
        let padding = String(repeating: "x", count: 3 * InputSourceTests.chunk + 7)
        let text = "{\"type\":\"a\"}\n{\"type\":\"\(padding)\"}\n{\"type\":\"c\"}\n"
        #expect(
            try transcript(ofFile: text) == [#": {"type":"a"}"#, ": {\"type\":\"\(padding)\"}", #": {"type":"c"}"#])
    }

    /// The buffer a long line was gathered in is let go after it, not held for the run;
    /// a buffer of a modest size is kept for the next such line.
    @Test func letsGoOfTheBufferOfAVeryLongLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let long = String(repeating: "x", count: 4 << 20)
        let medium = String(repeating: "y", count: 3 * InputSourceTests.chunk)
        try "\(long)\n\(medium)\nz\nw\n".write(toFile: path, atomically: false, encoding: .utf8)
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        let reader = LineReader(fd: fd)
        func nextCount() -> Int? {
            guard case .text(let bytes)? = reader.next() else { return nil }
            return bytes.count
        }
        #expect(nextCount() == 4 << 20)
        #expect(reader.gatherCapacity >= 4 << 20)
        #expect(nextCount() == 3 * InputSourceTests.chunk)
        #expect(reader.gatherCapacity > 0 && reader.gatherCapacity <= LineReader.keptGatherCapacity)
        #expect(nextCount() == 1)
        #expect(reader.gatherCapacity > 0)
        #expect(nextCount() == 1)
    }

    @Test func skipsAnOverlongLineAndGoesOnAfterIt() throws {
        var bytes = Array("{\"type\":\"a\"}\n".utf8)
        bytes += Array(repeating: UInt8(ascii: " "), count: LineReader.limit + 1)
        bytes += Array("\n{\"type\":\"c\"}\n".utf8)
        #expect(
            try transcript(ofFile: bytes) == [
                #": {"type":"a"}"#, "error 2: the line is longer than 16 MiB", #": {"type":"c"}"#,
            ])
    }

    @Test func keepsALineOfExactlyTheLimit() throws {
        // The limit counts the line without its break; a carriage return counts.
        let body = "{\"type\":\"a\"}"
        var line = Array(body.utf8)
        line += Array(repeating: UInt8(ascii: " "), count: LineReader.limit - line.count - 1)
        line.append(UInt8(ascii: "\r"))
        #expect(line.count == LineReader.limit)
        #expect(try transcript(ofFile: line + [0x0A] + line) == [#": {"type":"a"}"#, #": {"type":"a"}"#])
        #expect(try transcript(ofFile: line + [0x20, 0x0A]) == ["error 1: the line is longer than 16 MiB"])
    }

    @Test func anOverlongLastLineEndsTheInput() throws {
        let bytes = Array(repeating: UInt8(ascii: " "), count: LineReader.limit + 1)
        #expect(try transcript(ofFile: bytes) == ["error 1: the line is longer than 16 MiB"])
    }

    @Test func usesALineFromAPipeAsSoonAsItIsComplete() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let source = InputSource(fd: fds[0], close: true)
        func write(_ text: String) {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBytes { Foundation.write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        }
        // The second line is incomplete: reading the first must not wait for it.
        write("{\"type\":\"a\"}\n{\"type\"")
        #expect(transcript(source, calls: 1) == [#": {"type":"a"}"#])
        write(":\"b\"}\r\n\n{\"type\":\"c\"}\n")
        #expect(transcript(source, calls: 2) == [#": {"type":"b"}"#, #": {"type":"c"}"#])
        write("{\"type\":\"d\"}")
        close(fds[1])
        #expect(transcript(source) == [#": {"type":"d"}"#])
    }

    @Test func linesGivenAsStringsReadAsAFileDoes() {
        let source = InputSource(lines: [#"{"type":"a"}"#, "  ", #"{"at":2,"action":{"type":"b"}}"#, "{"])
        #expect(
            transcript(source) == [
                #": {"type":"a"}"#, #"2: {"type":"b"}"#,
                "error 4: unterminated object; expected a string key (column 2)",
            ])
    }
}
