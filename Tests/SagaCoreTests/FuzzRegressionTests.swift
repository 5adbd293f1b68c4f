import Foundation
import SagaCore
import Testing

/// Every input in `FuzzRegressions/FuzzJSON/`, checked as the `FuzzJSON` target checks it: a
/// text the reader accepts writes as canonical JSON that reads back and writes the same.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions/FuzzJSON")

    static var inputs: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test func theFolderIsThere() {
        #expect(!Self.inputs.isEmpty)
    }

    @Test(arguments: inputs) func canonicalJSONIsAFixedPoint(_ file: URL) throws {
        let bytes = try [UInt8](Data(contentsOf: file))
        guard let value = try? JSONReader.parse(bytes: bytes) else { return }
        let text = value.canonicalJSON
        let again = try JSONReader.parse(text)
        #expect(again.canonicalJSON == text)
    }

    /// The first input the fuzzer kept: a double past 2^53 is written as JavaScript writes it,
    /// and reads back as an integer (an integer that fits reads as one), not as the same
    /// double; the text stays the same.
    @Test func aDoublePast2To53ReadsBackAsTheIntegerItPrints() throws {
        let value = try JSONReader.parse("1846743446743646320.07690")
        #expect(value.canonicalJSON == "1846743446743646200")
        #expect(try JSONReader.parse(value.canonicalJSON) == .int(1_846_743_446_743_646_200))
    }
}
