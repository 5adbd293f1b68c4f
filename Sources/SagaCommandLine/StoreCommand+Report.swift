import Foundation
import SagaCore
import SagaPersistence

extension StoreCommand {
    /// The text report of `store verify`: a summary line, then a line per file and per entity.
    ///
    /// Warnings and the problem go to standard error, as diagnostics do.
    static func text(_ report: StoreReport) -> String {
        var out = "\(report.directory): "
        guard report.isSound else {
            switch report.problem?.code {
            case .locked?: out += "in use\n"
            case .io?: out += "cannot be read\n"
            case .newerFormat?: out += "written by a newer version\n"
            case .missing?: out += "no saga store here\n"
            default:
                out += "damaged\n" + fileLines(report)
                if let name = damagedFileName(report) {
                    out += "  \(name)  damaged\(report.problem?.offset.map { " at offset \($0)" } ?? "")\n"
                }
                return out
            }
            return out + fileLines(report)
        }
        out += "sound: \(counted(report.files.count, "file")), \(counted(report.bytes, "byte"))"
        out += ", \(counted(report.elements, "element"))"
        out += ", last record \(report.lastSequence)\n"
        out += fileLines(report)
        for entity in report.entities.keys.sorted(by: Record.keyPrecedes) {
            out += "  entity \(shown(entity)): \(counted(report.entities[entity] ?? 0, "element"))\n"
        }
        return out
    }

    /// An entity's name as a line shows it: as it is, or, when it holds a control character
    /// (a NUL, a line break), as a JSON string, which escapes them.
    static func shown(_ entity: String) -> String {
        let plain = !entity.isEmpty && !entity.unicodeScalars.contains { $0.properties.generalCategory == .control }
        return plain ? entity : Value.string(entity).canonicalJSON
    }

    private static func fileLines(_ report: StoreReport) -> String {
        let width = report.files.map(\.name.count).max() ?? 0
        let sizeWidth = report.files.map { String($0.bytes).count }.max() ?? 0
        var out = ""
        var previous: UInt64 = 0
        for file in report.files {
            let name = file.name + String(repeating: " ", count: width - file.name.count)
            let size = String(file.bytes)
            out += "  \(name)  \(String(repeating: " ", count: sizeWidth - size.count))\(size) bytes  "
            switch file.kind {
            case .snapshot:
                out += "\(counted(file.count, "element")), up to record \(file.lastSequence)\n"
            case .log:
                out +=
                    file.count == 0
                    ? "no records\n" : "\(counted(file.count, "record")), \(previous + 1) to \(file.lastSequence)\n"
            }
            previous = file.lastSequence
        }
        return out
    }

    /// The name of the damaged file the scan stopped at, when the report's file list leaves it
    /// out: both reports list it after the files read whole.
    private static func damagedFileName(_ report: StoreReport) -> String? {
        guard report.problem?.code == .corrupt, let path = report.problem?.path else { return nil }
        let name = (path as NSString).lastPathComponent
        return report.files.contains(where: { $0.name == name }) ? nil : name
    }

    /// `1 element`, `2 elements`.
    static func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// The JSON report of `store verify --format json`.
    static func json(_ report: StoreReport) -> Value {
        var entities = Record()
        for (name, count) in report.entities { entities[name] = .int(count) }
        var files: [Value] = report.files.map { file in
            [
                "name": .string(file.name), "kind": .string(file.kind.rawValue), "bytes": .int(file.bytes),
                (file.kind == .log ? "records" : "elements"): .int(file.count),
                "lastSequence": .int(Int(clamping: file.lastSequence)),
            ]
        }
        if let name = damagedFileName(report) {
            files.append([
                "name": .string(name), "damaged": true, "offset": report.problem?.offset.map { .int($0) } ?? .null,
            ])
        }
        let warnings: [Value] = report.warnings.map { w in
            ["message": .string(w.message), "file": .string(w.path), "offset": w.offset.map { .int($0) } ?? .null]
        }
        var problem = Value.null
        if let p = report.problem {
            problem = [
                "code": .string(p.code.name), "message": .string(p.message),
                "file": p.path.map { .string($0) } ?? .null,
                "offset": p.offset.map { .int($0) } ?? .null,
            ]
        }
        return [
            "directory": .string(report.directory), "sound": .bool(report.isSound), "files": .list(files),
            "entities": .record(entities), "elements": .int(report.elements), "records": .int(report.records),
            "bytes": .int(report.bytes), "lastSequence": .int(Int(clamping: report.lastSequence)),
            "warnings": .list(warnings), "problem": problem,
        ]
    }
}
