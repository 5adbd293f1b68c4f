import Foundation
import SagaLanguage
import Testing

@testable import SagaCommandLine

/// `sagarun` lets glibc's heap grow in large steps while it compiles a large file (what that
/// gains is measured by `Sources/sagabench/Scripts/e2e-compare.py --check`); these tests pin
/// when it does.
@Suite struct HeapGrowthTests {
    /// A file of `size` bytes in a fresh folder, named `name`.
    func withFile(_ name: String, size: Int, _ body: (String) -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heap-growth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: size)))
        body(path)
    }

    @Test func aFileOfAMebibyteOrMoreIsLargeAndOneByteLessIsNot() throws {
        try withFile("big.saga", size: HeapGrowth.largeFileBytes) { #expect(HeapGrowth.isLarge($0)) }
        try withFile("small.saga", size: HeapGrowth.largeFileBytes - 1) { #expect(!HeapGrowth.isLarge($0)) }
    }

    @Test func aFolderOrAMissingFileIsNotLarge() {
        #expect(!HeapGrowth.isLarge(FileManager.default.temporaryDirectory.path))
        #expect(!HeapGrowth.isLarge("/no/such/file.saga"))
    }

    @Test func aLargeFileGrowsTheHeapInLargeStepsUnlessTheUserTunedMalloc() throws {
        try withFile("big.saga", size: HeapGrowth.largeFileBytes) { path in
            #expect(HeapGrowth.growsInLargeSteps(compiling: ["other.saga", path], [:]))
            #expect(HeapGrowth.growsInLargeSteps(compiling: [path], ["GLIBC_TUNABLES": "glibc.rtld.nns=2"]))
            #expect(!HeapGrowth.growsInLargeSteps(compiling: [path], ["GLIBC_TUNABLES": "glibc.malloc.top_pad=0"]))
            #expect(!HeapGrowth.growsInLargeSteps(compiling: [path], ["MALLOC_TOP_PAD_": "0"]))
            #expect(!HeapGrowth.growsInLargeSteps(compiling: [path], ["MALLOC_ARENA_MAX": "1"]))
        }
        try withFile("small.saga", size: 100) { #expect(!HeapGrowth.growsInLargeSteps(compiling: [$0], [:])) }
    }

    /// A compile in large steps gives what it gives in small ones. (Not through `ProcessIO`,
    /// which keeps what it compiled until the process exits: LeakSanitizer, which cannot follow
    /// the tagged pointers of a tree kept to the end, would report it.)
    @Test func aLargeFileCompilesTheSameInLargeSteps() throws {
        let padding = String(repeating: "// padding\n", count: HeapGrowth.largeFileBytes / 11 + 1)
        let source = "saga main { log 1 }\n" + padding
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("heap-growth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.saga").path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(HeapGrowth.growsInLargeSteps(compiling: [path], [:]))
        let result = HeapGrowth.whileCompiling(path) { Frontend().compile(path: path) }
        #expect(result.diagnostics.isEmpty)
        #expect(result.program?.sagas.map(\.name) == ["main"])
    }
}
