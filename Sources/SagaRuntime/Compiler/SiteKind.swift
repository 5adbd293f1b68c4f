import SagaCore
import SagaLanguage

/// What a statement of a saga that the interpreter runs where it stands (a ``Code/Site``)
/// does, where the code has an instruction of its own for it: the usual forms of `take` and
/// `put`, with the pattern and the action made once (``Code/Instruction/take(_:)``,
/// ``Code/Instruction/put(_:)``), and `put "t" {…}` whose fields the code computes
/// (``Code/Instruction/putBuilt(_:_:)``); and `cancel` and `join` of a variable
/// (``Code/Instruction/cancelTask(slot:site:)``, ``Code/Instruction/joinTask(slot:into:site:)``).
enum SiteKind {
    /// Any statement: run by the interpreter where it stands.
    case statement
    /// `take "t"` (no `where`, no channel), its value into `slot` (-1: nowhere).
    case take(ActionPattern, slot: Int)
    /// `put "t"` or `put "t" {k: literal, …}`, its value into `slot` (-1: nowhere).
    case put(Value, slot: Int)
    /// `put "t" {k: EXPR, …}`, its fields not all literals and none named `type`: the action is
    /// built by the code, its value into `slot`.
    case putRecord(type: String, fields: [RecordField], slot: Int)
    /// `cancel t` of the variable `task`.
    case cancel(task: Variable)
    /// `join t` of the variable `task`, its value into `slot`.
    case join(task: Variable, slot: Int)

    init(_ statement: Stmt) {
        let slot: Int
        let effect: Effect
        switch statement {
        case .effect(let e, _):
            (slot, effect) = (-1, e)
        case .declare(let v, _, .effect(let e), _) where v.slot >= 0:
            (slot, effect) = (v.slot, e)
        case .assign(let lv, .effect(let e), _):
            guard lv.path.isEmpty, case .variable(let v) = lv.root, v.slot >= 0 else {
                self = .statement
                return
            }
            (slot, effect) = (v.slot, e)
        default:
            self = .statement
            return
        }
        switch effect {
        case .cancel(.variable(let task)?, _) where slot < 0 && task.slot >= 0:
            self = .cancel(task: task)
        case .join(.variable(let task), _) where task.slot >= 0:
            self = .join(task: task, slot: slot)
        case .take(.expr(.literal(.string(let type), _)), nil, _):
            self = .take(ActionPattern(string: type), slot: slot)
        case .put(.literal(.string(let type), _), nil, _):
            self = .put(LiteralAction.typeOnly(type), slot: slot)
        case .put(.literal(.string(let type), _), .record(let fields, _)?, _):
            if let action = LiteralAction.make(type, fields) {
                self = .put(action, slot: slot)
            } else if fields.allSatisfy({ $0.key != "type" }) {
                self = .putRecord(type: type, fields: fields, slot: slot)
            } else {
                self = .statement
            }
        default:
            self = .statement
        }
    }
}
