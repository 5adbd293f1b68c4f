import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// When the Frontend parses, a call of a function declared earlier in the same file names it
/// by its index among the file's functions (see Parser+Slots.swift); the checker turns it back
/// into that function's name, so the program and the diagnostics are those of a parse that
/// plans nothing, whatever the files and their order.
@Suite("The parser plans the checker's callees")
struct CalleePlanningTests {
    /// Every callee node of a JSON tree: its place, kind and index or name, sorted.
    static func callees(_ value: Value) -> [String] {
        astNodes(value) { record in
            guard case .string(let kind)? = record["kind"], ["named", "function", "host"].contains(kind),
                case .int(let line)? = record["line"], case .int(let column)? = record["column"]
            else { return nil }
            var what = ""
            if case .int(let index)? = record["index"] { what = "\(index)" }
            if case .string(let name)? = record["name"] { what = name }
            return "\(line):\(column) \(kind) \(what)"
        }
    }

    /// Compiles `files` (by name; `main.saga` is the root) twice: parsed as the Frontend
    /// parses, and parsed by the public entry, which plans nothing.
    ///
    /// Returns both programs' JSON (or nil) and diagnostics, and the callees of the planned
    /// parse.
    static func compileBothWays(
        _ files: [String: String], hostFunctions: Set<String> = []
    ) throws -> (
        planned: (Value?, [Diagnostic]), unplanned: (Value?, [Diagnostic]), plannedCallees: [String]
    ) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("callees-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        var loader = SourceLoader()
        loader.load(path: folder.appendingPathComponent("main.saga").path)
        #expect(!loader.diagnostics.contains(where: { $0.severity == .error }))
        let unplannedUnits = loader.units.map { Parser.parse(loader.files[Int($0.file)], fileIndex: $0.file).unit }
        let units = loader.takeUnits()
        let plannedCallees = callees(.list(units.map(astJSON)))
        var planned = Checker(hostFunctions: hostFunctions)
        planned.names = loader.takeNames()
        let plannedProgram = planned.check(units: units, files: loader.files)
        var unplanned = Checker(hostFunctions: hostFunctions)
        let unplannedProgram = unplanned.check(units: unplannedUnits, files: loader.files)
        return (
            (plannedProgram.map(astJSON), planned.diagnostics),
            (unplannedProgram.map(astJSON), unplanned.diagnostics), plannedCallees
        )
    }

    @Test func aCallOfAnEarlierFunctionIsPlannedAsResolved() throws {
        let (planned, unplanned, callees) = try Self.compileBothWays(
            [
                "main.saga": """
                func f(a) { return a }
                func api.g() { return 1 }
                func h(a, b) { let x = call f(a); let y = call later(); fork f(b); return x }
                func later() { let r = call h(1, 2); return r }
                saga s { let r = call h(1, 2); spawn f(r); call api.g(); call host(1) }
                """
            ], hostFunctions: ["host"])
        let program = try #require(planned.0)
        #expect(program == unplanned.0)
        #expect(planned.1 == unplanned.1)
        // Planned: the calls of f and h after their declarations (and that of h in `later`);
        // the forward call of `later`, the dotted name and the host function keep their names.
        #expect(
            callees == [
                "3:29 function 0", "3:48 named later", "3:62 function 0", "4:29 function 2",
                "5:23 function 2", "5:38 function 0", "5:49 named api.g", "5:63 named host",
            ])
        #expect(Self.callees(program).contains("3:48 function 3"))
    }

    @Test func importedFunctionsComeFirstSoTheRootsPlansAreResolvedAgain() throws {
        let (planned, unplanned, callees) = try Self.compileBothWays([
            "lib.saga": """
            func g(a) { return a }
            func k() { let r = call g(1); return r }
            """,
            "main.saga": """
            import "lib.saga"
            func f(a) { let r = call g(a); return r }
            saga s { let r = call f(1); let q = call k(); put "t" { r: r, q: q } }
            """,
        ])
        let program = try #require(planned.0)
        #expect(program == unplanned.0)
        #expect(planned.1 == unplanned.1)
        #expect(callees.contains("3:23 function 0"))  // f, the root's first function
        #expect(Self.callees(program).contains("3:23 function 2"))  // after lib's g and k
    }

    @Test func plannedCallsReportWhatNamedCallsReport() throws {
        let (planned, unplanned, callees) = try Self.compileBothWays([
            "main.saga": """
            func f(a) { return a }
            func f(a, b) { return a }
            saga f { }
            saga s { let r = call f(1, 2, 3); fork f() }
            """
        ])
        #expect(planned.0 == nil)
        #expect(unplanned.0 == nil)
        #expect(planned.1 == unplanned.1)
        #expect(planned.1.filter { $0.message.contains("takes 1 argument") }.count == 2)
        #expect(callees == ["4:23 function 0", "4:40 function 0"])
    }
}
