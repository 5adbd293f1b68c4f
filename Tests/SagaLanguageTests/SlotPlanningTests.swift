import Foundation
import SagaCore
import Testing

@testable import SagaLanguage

/// When the Frontend parses, every variable already gets the slot the checker gives it, so
/// that checking a valid program changes no expression (see Parser+Slots.swift).
@Suite("The parser plans the checker's slots")
struct SlotPlanningTests {
    static let sagas: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sagas")

    /// Every variable node of a JSON tree: its place, name and slot, sorted.
    static func variables(_ value: Value) -> [String] {
        astNodes(value) { record in
            guard record["kind"] == .string("variable"), case .int(let line)? = record["line"],
                case .int(let column)? = record["column"], case .string(let name)? = record["name"],
                case .int(let slot)? = record["slot"]
            else { return nil }
            return "\(line):\(column) \(name) \(slot)"
        }
    }

    /// The variables of `path`'s program as parsed and as checked, or `nil` if it does not
    /// compile (an example of an error).
    static func plannedAndChecked(_ path: String) -> (planned: [String], checked: [String])? {
        var loader = SourceLoader()
        loader.load(path: path)
        guard !loader.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        let units = loader.takeUnits()
        let planned = variables(.list(units.map(astJSON)))
        var checker = Checker(hostFunctions: [])
        checker.names = loader.takeNames()
        guard let program = checker.check(units: units, files: loader.files) else { return nil }
        return (planned, variables(astJSON(program)))
    }

    @Test func everyExampleIsParsedWithTheSlotsTheCheckerGives() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.sagas.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".saga") }.sorted()
        var compared = 0
        for file in files {
            guard let (planned, checked) = Self.plannedAndChecked(Self.sagas.appendingPathComponent(file).path)
            else { continue }
            #expect(planned == checked, "\(file)")
            compared += 1
        }
        #expect(compared >= 30)
    }

    @Test func anASTWithoutPlannedSlotsIsResolvedToTheSameProgram() throws {
        // Parsed by the public entry, every slot is -1 and every callee a name: the checker
        // changes each variable and call, and rebuilds what holds them.
        let files = try #require(FileManager.default.enumerator(atPath: Self.sagas.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".saga") }.sorted()
        var compared = 0
        for file in files {
            var loader = SourceLoader()
            loader.load(path: Self.sagas.appendingPathComponent(file).path)
            guard loader.files.count == 1, !loader.diagnostics.contains(where: { $0.severity == .error }) else {
                continue
            }
            var planned = Checker(hostFunctions: [])
            planned.names = loader.takeNames()
            guard let expected = planned.check(units: loader.takeUnits(), files: loader.files) else { continue }
            let (unit, _) = Parser.parse(loader.files[0], fileIndex: 0)
            var unplanned = Checker(hostFunctions: [])
            let checked = unplanned.check(units: [unit], files: loader.files)
            let program = try #require(checked, "\(file)")
            #expect(astJSON(program) == astJSON(expected), "\(file)")
            #expect(unplanned.diagnostics == planned.diagnostics, "\(file)")
            compared += 1
        }
        #expect(compared >= 30)
    }

    @Test func shadowingLoopsAndBindingsArePlannedAsChecked() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("main.saga")
        try Data(
            """
            state { n: 0 }
            reduce "inc" as a { state.n = state.n + a.by }
            func f(a, b) {
              let x = a + b
              for i in [1, 2] { var y = i; y = y + x; log y }
              try { throw "e" } catch e { log e } finally { log x }
              fork { let z = x; log z }
              every "t" as t { log t }
              let w = all for k in [1] { delay k }
              if true { let x = 1; log x } else { let q = x; log q }
              let x2 = [x, "s\\(x)", {k: x, m: [w]}]
              return x2
            }
            saga s { let r = call f(1, 2); put "done" { r: r } }
            """.utf8
        ).write(to: file)
        let (planned, checked) = try #require(Self.plannedAndChecked(file.path))
        #expect(planned == checked)
        #expect(planned.count == 38)
    }
}
