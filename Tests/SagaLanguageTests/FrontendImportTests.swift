import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// A temporary folder of `.saga` files, removed when the test is done with it.
private struct SagaFolder {
    let url: URL

    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("saga-frontend-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try write(name, Data(text.utf8))
        }
    }

    func write(_ name: String, _ data: Data) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// `LINE:COLUMN: severity: message` with the file's name in front.
private func described(_ result: CompileResult) -> [String] {
    result.diagnostics.map { d in
        let file =
            d.location.file >= 0 && Int(d.location.file) < result.files.count
            ? (result.files[Int(d.location.file)].path as NSString).lastPathComponent : "?"
        return "\(file):\(d.location.line):\(d.location.column): \(d.severity.rawValue): \(d.message)"
    }
}

@Suite("The frontend reads a program's files and follows its imports")
struct FrontendImportTests {
    @Test func aDiamondOfImportsReadsTheSharedFileOnceAndMergesDepthFirst() throws {
        let folder = try SagaFolder([
            "main.saga": "import \"left.saga\"\nimport \"right.saga\"\nsaga main { call shared() }\n",
            "left.saga": "import \"lib/shared.saga\"\nsaga left { }\n",
            "right.saga": "import \"lib/shared.saga\"\nsaga right { }\n",
            "lib/shared.saga": "state { n: 0 }\nfunc shared() { }\nsaga base { }\n",
        ])
        defer { folder.remove() }
        let result = Frontend().compile(path: folder.path("main.saga"))
        #expect(described(result) == [])
        #expect(result.unreadableFiles == [])
        #expect(
            result.files.map { ($0.path as NSString).lastPathComponent }
                == ["main.saga", "left.saga", "shared.saga", "right.saga"])
        let program = try #require(result.program)
        #expect(program.sagas.map(\.name) == ["base", "left", "right", "main"])
        #expect(program.sagas.map { $0.location.file } == [2, 1, 3, 0])
        #expect(program.initialState != nil)
    }

    @Test func anImportCycleIsAnErrorAtTheImportThatClosesIt() throws {
        let folder = try SagaFolder([
            "a.saga": "import \"b.saga\"\nsaga a { }\n",
            "b.saga": "\nimport \"a.saga\"\nsaga b { }\n",
        ])
        defer { folder.remove() }
        let result = Frontend().compile(path: folder.path("a.saga"))
        #expect(result.program == nil)
        #expect(result.hasErrors)
        let a = folder.path("a.saga")
        let b = folder.path("b.saga")
        #expect(described(result) == ["b.saga:2:1: error: import cycle: \(a) → \(b) → \(a)"])
    }

    @Test func aFileImportingItselfIsACycle() throws {
        let folder = try SagaFolder(["self.saga": "import \"self.saga\"\n"])
        defer { folder.remove() }
        let path = folder.path("self.saga")
        let result = Frontend().compile(path: path)
        #expect(described(result) == ["self.saga:1:1: error: import cycle: \(path) → \(path)"])
    }

    @Test func aMissingImportIsADiagnosticAtTheImportAndAnUnreadableFile() throws {
        let folder = try SagaFolder(["main.saga": "saga main { }\nimport \"gone.saga\"\n"])
        defer { folder.remove() }
        let result = Frontend().compile(path: folder.path("main.saga"))
        let gone = folder.path("gone.saga")
        #expect(result.unreadableFiles == [gone])
        #expect(described(result) == ["main.saga:2:1: error: cannot read imported file '\(gone)': no such file"])
        #expect(result.program == nil)
    }

    @Test func aMissingRootFileIsAnUnreadableFile() throws {
        let folder = try SagaFolder([:])
        defer { folder.remove() }
        let path = folder.path("nothing.saga")
        let result = Frontend().compile(path: path)
        #expect(result.unreadableFiles == [path])
        #expect(result.files.isEmpty)
        #expect(result.hasErrors)
        #expect(result.renderedDiagnostics == "error: cannot read '\(path)': no such file\n")
    }

    @Test func invalidUTF8IsADiagnosticAtTheBadByteNotACrash() throws {
        let folder = try SagaFolder([:])
        defer { folder.remove() }
        try folder.write("bad.saga", Data("saga main {\n  log \"".utf8) + Data([0xFF, 0xFE]) + Data("\"\n}\n".utf8))
        let result = Frontend().compile(path: folder.path("bad.saga"))
        #expect(described(result) == ["bad.saga:2:8: error: '\(folder.path("bad.saga"))' is not valid UTF-8"])
        #expect(result.unreadableFiles == [])
        #expect(result.program == nil)
    }

    @Test func sourceTextImportsFilesRelativeToItsPath() throws {
        let folder = try SagaFolder(["lib.saga": "func helper(x) { return x }\n"])
        defer { folder.remove() }
        let result = Frontend().compile(
            source: "import \"lib.saga\"\nsaga main { let y = call helper(1) }\n", path: folder.path("main.saga"))
        #expect(described(result) == [])
        #expect(result.program?.functions.map(\.name) == ["helper"])
        #expect(result.files.count == 2)
    }

    @Test func diagnosticsAreInFileThenLineOrderAndRenderLikeSwiftc() throws {
        let folder = try SagaFolder([
            "main.saga": "import \"lib.saga\"\nsaga main {\n  log missing\n}\n",
            "lib.saga": "saga lib { log nope }\n",
        ])
        defer { folder.remove() }
        let result = Frontend().compile(path: folder.path("main.saga"))
        #expect(
            described(result) == [
                "main.saga:3:7: error: unknown variable 'missing'",
                "lib.saga:1:16: error: unknown variable 'nope'",
            ])
        #expect(
            result.diagnostics.first?.rendered(files: result.files)
                == "\(folder.path("main.saga")):3:7: error: unknown variable 'missing'\n  log missing\n      ^")
    }

    @Test func hostFunctionsAreKnownCallees() {
        let frontend = Frontend(hostFunctions: ["api.fetchUser"])
        let result = frontend.compile(source: "saga main { let u = call api.fetchUser(1) }", path: "main.saga")
        #expect(result.diagnostics.isEmpty)
        #expect(result.program != nil)
    }

    @Test func aSyntaxErrorStopsBeforeCheckingSoNoEchoesAreReported() {
        let result = Frontend().compile(source: "saga main {\n  let = 1\n  log x\n}\n", path: "main.saga")
        #expect(result.hasErrors)
        #expect(result.program == nil)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location.line == 2)
    }
}
