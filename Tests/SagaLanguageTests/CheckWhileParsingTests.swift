import Foundation
import SagaCore
import Testing

@_spi(Testing) @testable import SagaLanguage

/// `Frontend.check` checks each declaration as soon as it is parsed and lets its tree go
/// (`CheckingSink`), making the look-ups of the program's names once every file is parsed.
///
/// Whatever the program, it reports what `Frontend.compile` reports, in the same order.
@Suite("Checking while parsing reports what compiling reports")
struct CheckWhileParsingTests {
    /// Compiles and checks `source`, whole and cut into as many pieces as it can be, and
    /// expects the four to report the same; returns the compile's diagnostics.
    @discardableResult
    static func expectSameReports(
        _ source: String, hostFunctions: Set<String> = [], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> [Diagnostic] {
        let whole = Frontend(hostFunctions: hostFunctions)
        var cutting = whole
        cutting.cutsEveryFile()
        let compiled = whole.compile(source: source, path: "t.saga")
        let checked = whole.check(source: source, path: "t.saga")
        let cutChecked = cutting.check(source: source, path: "t.saga")
        #expect(checked.program == nil, sourceLocation: sourceLocation)
        #expect(checked.diagnostics == compiled.diagnostics, sourceLocation: sourceLocation)
        #expect(cutChecked.diagnostics == compiled.diagnostics, sourceLocation: sourceLocation)
        #expect(cutting.compile(source: source, path: "t.saga").diagnostics == compiled.diagnostics)
        return compiled.diagnostics
    }

    @Test(arguments: ProgramGraphTests.exampleFiles)
    func everyExampleChecksAsItCompiles(_ path: String) {
        let frontend = Frontend()
        var cutting = frontend
        cutting.cutsEveryFile()
        let compiled = frontend.compile(path: path)
        let checked = frontend.check(path: path)
        #expect(checked.diagnostics == compiled.diagnostics)
        #expect(cutting.check(path: path).diagnostics == compiled.diagnostics)
        #expect(checked.files.map(\.path) == compiled.files.map(\.path))
        #expect(checked.hasErrors == (compiled.program == nil))
    }

    @Test func callsOfFunctionsDeclaredLaterAreResolvedOnceAllAreParsed() {
        let diagnostics = Self.expectSameReports(
            """
            saga s {
              let a = call later(1)
              let b = call later(1, 2)
              fork missing(a, b)
              call host(b)
            }
            func later(x, y) { return x + y }
            func earlier() { let r = call later(1, 2, 3); return r }
            """, hostFunctions: ["host"])
        #expect(
            diagnostics.map(\.message) == [
                "'later' takes 2 arguments but 1 was given", "'later' declared here",
                "unknown function 'missing'", "'later' takes 2 arguments but 3 were given", "'later' declared here",
            ])
    }

    @Test func namesThatAreNotBuiltInsGetTheMessageOfWhatTheyName() {
        let diagnostics = Self.expectSameReports(
            """
            saga main {
              let a = f(1)
              let b = s()
              let c = host()
              let d = lenn([a, b, c])
              log d
            }
            func f(x) { return x }
            saga s { log 1 }
            """, hostFunctions: ["host"])
        #expect(
            diagnostics.map(\.message) == [
                "'f' is a saga function; call it with call, fork or spawn",
                "'s' is a root saga; it starts on its own and cannot be called",
                "'host' is a host function; call it with call, fork or spawn",
                "unknown function 'lenn'; did you mean 'len'?",
            ])
    }

    @Test func aRootSagaCalledAndARedeclaredNameAreReportedInPlace() {
        let diagnostics = Self.expectSameReports(
            """
            saga s { call t() }
            saga t { let unused = 1 }
            func t() { return 1 }
            state { a: 1 }
            state { b: x }
            reduce "a" as action { state.a = action.n + y }
            """)
        #expect(diagnostics.contains { $0.message == "invalid redeclaration of 't'" })
        #expect(diagnostics.contains { $0.message.hasPrefix("more than one 'state' declaration") })
        #expect(diagnostics.contains { $0.message.hasPrefix("unknown variable 'y'") })
        #expect(diagnostics.contains { $0.message.hasPrefix("variable 'unused' was never used") })
    }

    @Test func aFileCutIntoPiecesResolvesCallsAcrossThem() {
        // Each declaration is a piece of its own when cut: every call names a function of
        // another piece, one declared before it and one after.
        var source = ""
        for i in 0..<12 {
            source += "func f\(i)(a) { return call f\((i + 1) % 12)(a, 1) }\n"
            source += "saga s\(i) { let r = call f\((i + 11) % 12)(\(i)); log r }\n"
        }
        let diagnostics = Self.expectSameReports(source)
        #expect(diagnostics.filter { $0.severity == .error }.count == 12)
    }

    @Test func aParseErrorStopsTheCheckAsItStopsTheCompile() {
        let diagnostics = Self.expectSameReports(
            """
            saga s { call nowhere() }
            saga t { let = 1 }
            """)
        #expect(!diagnostics.contains { $0.message.contains("nowhere") })
        #expect(diagnostics.contains { $0.severity == .error })
    }

    /// Files written to a fresh folder for the duration of `body`.
    static func withFiles(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        try body(folder)
    }

    @Test func importedFilesAreCheckedAsTheyAreCompiled() throws {
        try Self.withFiles([
            "main.saga": """
            import "lib.saga"
            import "other.saga"
            saga main { let r = call helper(1, 2); let q = call later(); log r }
            func later() { let x = call helper(3); return x }
            """,
            "lib.saga": """
            state { n: 0 }
            func helper(a) { return a + missing }
            saga main { log 1 }
            """,
            "other.saga": """
            import "lib.saga"
            func helper(b) { return b }
            state { m: 1 }
            """,
        ]) { folder in
            let path = folder.appendingPathComponent("main.saga").path
            let compiled = Frontend().compile(path: path)
            let checked = Frontend().check(path: path)
            #expect(checked.diagnostics == compiled.diagnostics)
            #expect(checked.files.map(\.path) == compiled.files.map(\.path))
            let messages = compiled.diagnostics.map(\.message)
            #expect(messages.contains("invalid redeclaration of 'helper'"))
            #expect(messages.contains("invalid redeclaration of 'main'"))
            #expect(messages.contains { $0.hasPrefix("unknown variable 'missing'") })
            #expect(messages.contains("'helper' takes 1 argument but 2 were given"))
            #expect(messages.contains { $0.hasPrefix("more than one 'state' declaration") })
        }
    }

    @Test func anImportThatCannotBeReadStopsTheCheckAsItStopsTheCompile() throws {
        try Self.withFiles(["main.saga": "import \"gone.saga\"\nsaga main { call nowhere() }\n"]) { folder in
            let path = folder.appendingPathComponent("main.saga").path
            let compiled = Frontend().compile(path: path)
            let checked = Frontend().check(path: path)
            #expect(checked.diagnostics == compiled.diagnostics)
            #expect(checked.unreadableFiles == compiled.unreadableFiles)
            #expect(checked.unreadableFiles.count == 1)
        }
    }

    @Test func onlyImportsAndStateAreKeptOfTheTree() {
        var loader = SourceLoader()
        loader.checksWhileParsing = true
        loader.load(
            source: """
                state { n: 0 }
                func f() { return 1 }
                saga s { let x = call f(); log x }
                reduce "a" as a { state.n = state.n + 1 }
                """, path: "t.saga")
        let units = loader.takeUnits()
        #expect(units.count == 1)
        let kept = units.flatMap(\.declarations).map { declaration -> String in
            if case .state = declaration { return "state" }
            return "other"
        }
        #expect(kept == ["state"])
        #expect(units[0].heads?.count == 4)
        #expect(units[0].bodyCheck?.lookups.count == 1)
    }

    @Test func unitsParsedWholeAreCheckedWholeWhenTheCheckIsFinished() {
        let source = """
            saga s { let r = call f(1, 2); log r; let unused = q }
            func f(a) { return a }
            """
        var loader = SourceLoader()
        loader.load(source: source, path: "t.saga")
        var checker = Checker(hostFunctions: [])
        checker.names = loader.takeNames()
        checker.finishChecking(units: loader.takeUnits())
        let compiled = Frontend().compile(source: source, path: "t.saga")
        #expect(DiagnosticOrder.sorted(checker.diagnostics) == compiled.diagnostics)
        #expect(compiled.diagnostics.count >= 3)
    }
}
