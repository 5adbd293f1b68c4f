import Foundation
import Testing

/// The language reference, `Sagas/README.md`, and the front page, `README.md`, show only code
/// that the golden tests run: each ```saga block is a run of consecutive lines, indentation
/// included, of a `.saga` file under `Sagas/`.
@Suite struct LanguageReferenceTests {
    /// The `Sagas/` folder of the package, found from this file's place in `Tests/DocumentationTests/`.
    static let sagasFolder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sagas")

    /// The fewest ```saga blocks the reference may have.
    static let minimumBlockCount = 30

    /// One ```saga block of the reference.
    struct Block {
        /// The 1-based line of `Sagas/README.md` that holds the block's opening fence.
        var line: Int
        /// The lines between the fences, exactly as written.
        var lines: [String]
    }

    /// One `.saga` file under `Sagas/`.
    struct Program {
        /// The file's path, relative to `Sagas/`.
        var path: String
        /// The file's lines, exactly as written.
        var lines: [String]
    }

    /// The text of `Sagas/README.md`.
    static func reference() throws -> String {
        try String(contentsOf: sagasFolder.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The text of the package's `README.md`.
    static func frontPage() throws -> String {
        try String(
            contentsOf: sagasFolder.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The lines of `text`, split at each newline, empty ones kept.
    static func lines(of text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The ```saga blocks of `markdown`, in order; a block left open runs to the end of the text.
    static func sagaBlocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        for (index, line) in lines(of: markdown).enumerated() {
            let fence = line.trimmingCharacters(in: .whitespaces)
            if current == nil, fence == "```saga" {
                current = Block(line: index + 1, lines: [])
            } else if let block = current, fence == "```" {
                blocks.append(block)
                current = nil
            } else {
                current?.lines.append(line)
            }
        }
        if let open = current { blocks.append(open) }
        return blocks
    }

    /// Every `.saga` file under `Sagas/`, sorted by path.
    static func programs() throws -> [Program] {
        let all = FileManager.default.enumerator(atPath: sagasFolder.path)?.compactMap { $0 as? String } ?? []
        return try all.filter { $0.hasSuffix(".saga") }.sorted().map { path -> Program in
            let text = try String(contentsOf: sagasFolder.appendingPathComponent(path), encoding: .utf8)
            return Program(path: path, lines: lines(of: text))
        }
    }

    /// Whether `part` is a run of consecutive lines of `whole`.
    static func contains(_ whole: [String], _ part: [String]) -> Bool {
        guard !part.isEmpty, part.count <= whole.count else { return false }
        return (0...(whole.count - part.count)).contains { start in
            whole[start..<start + part.count].elementsEqual(part)
        }
    }

    /// Each ```saga block of the reference and of the front page is a run of lines of one
    /// program under `Sagas/`; the first that is not is reported with its file and line.
    @Test(arguments: ["Sagas/README.md", "README.md"])
    func everySagaBlockIsCopiedFromAProgramUnderSagas(document: String) throws {
        let programs = try Self.programs()
        #expect(!programs.isEmpty, "no .saga file under \(Self.sagasFolder.path)")
        let text = document == "README.md" ? try Self.frontPage() : try Self.reference()
        let blocks = Self.sagaBlocks(of: text)
        #expect(!blocks.isEmpty, "\(document) has no ```saga block")
        let stray = blocks.first { block in
            !programs.contains { Self.contains($0.lines, block.lines) }
        }
        if let stray {
            Issue.record(
                """
                the ```saga block at \(document):\(stray.line) is not a run of lines of any .saga \
                file under Sagas/:
                \(stray.lines.joined(separator: "\n"))
                """)
        }
    }

    /// The reference has at least `minimumBlockCount` ```saga blocks, and none of them is empty.
    @Test func theReferenceHasEnoughExamplesAndNoEmptyOne() throws {
        let blocks = Self.sagaBlocks(of: try Self.reference())
        #expect(blocks.count >= Self.minimumBlockCount, "only \(blocks.count) ```saga blocks")
        for block in blocks {
            let isEmpty = block.lines.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
            #expect(!isEmpty, "the ```saga block at Sagas/README.md:\(block.line) is empty")
        }
    }
}
