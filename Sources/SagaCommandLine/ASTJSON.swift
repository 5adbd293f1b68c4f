import SagaCore
import SagaLanguage

/// The AST as a JSON value, for `sagarun ast`. Every node becomes a record with its `kind`
/// (the case name), its location as `at` ("line:column"), its labelled fields by label, and
/// its other fields, in order, as `operands`. Built by reflection, so every node of the AST
/// is covered as the AST grows.
enum ASTJSON {
    static func program(_ program: Program) -> Value {
        var r = Record()
        r["files"] = .list(program.files.map { .string($0.path) })
        r["state"] = program.initialState.map(reflect) ?? .null
        r["reducers"] = .list(program.reducers.map(reflect))
        r["sagas"] = .list(program.sagas.map(reflect))
        r["functions"] = .list(program.functions.map(reflect))
        return .record(r)
    }

    static func reflect(_ subject: Any) -> Value {
        switch subject {
        case let v as Value: return v
        case let s as String: return .string(s)
        case let i as Int: return .int(i)
        case let i as Int32: return .int(Int(i))
        case let b as Bool: return .bool(b)
        case let l as SourceLocation: return .string("\(l.line):\(l.column)")
        case let op as BinaryOperator: return .string(op.rawValue)
        case let op as UnaryOperator: return .string(op.rawValue)
        case let k as Watcher.Kind: return .string(k.rawValue)
        default: break
        }
        let mirror = Mirror(reflecting: subject)
        switch mirror.displayStyle {
        case .optional:
            guard let child = mirror.children.first else { return .null }
            return reflect(child.value)
        case .collection, .set:
            return .list(mirror.children.map { reflect($0.value) })
        case .enum:
            guard let child = mirror.children.first, let name = child.label else {
                return .string(String(describing: subject))
            }
            var r = Record([("kind", .string(name))])
            fields(of: child.value, into: &r)
            return .record(r)
        case .struct, .class, .tuple:
            var r = Record()
            fields(of: subject, into: &r)
            return .record(r)
        default:
            return .string(String(describing: subject))
        }
    }

    private static func fields(of payload: Any, into r: inout Record) {
        let mirror = Mirror(reflecting: payload)
        guard mirror.displayStyle == .tuple || mirror.displayStyle == .struct else {
            if payload is SourceLocation {
                r["at"] = reflect(payload)
            } else {
                r["operands"] = .list([reflect(payload)])
            }
            return
        }
        var operands: [Value] = []
        for child in mirror.children {
            if child.value is SourceLocation {
                r["at"] = reflect(child.value)
            } else if let label = child.label, !label.hasPrefix(".") {
                r[label] = reflect(child.value)
            } else {
                operands.append(reflect(child.value))
            }
        }
        if !operands.isEmpty { r["operands"] = .list(operands) }
    }
}
