import SagaCore
import SagaLanguage

/// A `while` or `for` loop whose body only computes: each statement stores an expression's
/// value, or the value of a call of a one-`return` function (see ``CallShape``), in a
/// variable. Such a loop is run by ``Interpreter/runLoweredLoop(_:over:_:steps:yieldAfter:ran:)``
/// from a table of plain steps, without the tree walk's statement switch, frames and reference counting:
/// `while i < n { let x = call one(); i = i + x }` took 768 instructions a turn walked, 380
/// lowered (callgrind, `call`).
///
/// Nothing a lowered step does can be seen before it succeeds: expressions have no effects,
/// and a step that would fail (an error, a call that must run inline or as a task, an
/// injected failure, a yield or the step limit due) is left to the tree walk, which runs
/// that statement as it always does. A lowered loop therefore runs exactly as the walked one:
/// the same values, errors, steps, call numbers and yields.
final class LoweredLoop {
    /// What one statement of the body does.
    enum Kind: UInt8 {
        /// `let x = EXPR`, `var x = EXPR` or `x = EXPR`: the expression's value into `slot`.
        case store
        /// `let x = call f(…)` or `x = call f(…)` of a one-`return` function: its value into `slot`.
        case call
    }

    /// One statement of the body, as plain data: read without a retain.
    struct Step {
        var kind: Kind
        /// The variable written.
        var slot: Int
        /// The called function (``Kind/call``).
        var function: Int
        /// Whether the call has arguments (so that a call without any reads no list).
        var hasArguments: Bool
        /// The expression, when it is `a op b` of integer variables or literals.
        var integer: IntegerOperation?
    }

    /// A `while` loop's condition, as written (`nil` for a `for` loop).
    let condition: Expr?
    /// The condition, when it is `a op b` of integer variables or literals.
    let test: IntegerOperation?
    /// The body, as written: the block the tree walk runs when a step is left to it.
    let body: [Stmt]
    /// One step per statement of the body.
    let steps: [Step]
    /// Per statement: the stored expression (``Kind/store``; read only when it is not an
    /// integer operation), or the called function's returned expression (``Kind/call``).
    let expressions: [Expr]
    /// Per statement: a call's arguments (read only when it has some).
    let arguments: [[Expr]]

    private init(condition: Expr?, body: [Stmt], steps: [Step], expressions: [Expr], arguments: [[Expr]]) {
        self.condition = condition
        self.test = condition.flatMap(IntegerOperation.init)
        self.body = body
        self.steps = steps
        self.expressions = expressions
        self.arguments = arguments
    }

    /// The loop lowered, or `nil` if its body has a statement other than those above (or
    /// none at all).
    ///
    /// - Parameters:
    ///   - condition: a `while` loop's condition; `nil` for a `for` loop.
    ///   - shapes: how each of the program's functions is called.
    static func lower(condition: Expr?, body: [Stmt], shapes: [CallShape]) -> LoweredLoop? {
        guard !body.isEmpty else { return nil }
        var steps: [Step] = []
        var expressions: [Expr] = []
        var arguments: [[Expr]] = []
        steps.reserveCapacity(body.count)
        for stmt in body {
            let slot: Int
            let rhs: Rhs
            switch stmt {
            case .declare(let v, _, let r, _):
                (slot, rhs) = (v.slot, r)
            case .assign(let lv, let r, _):
                guard lv.path.isEmpty, case .variable(let v) = lv.root else { return nil }
                (slot, rhs) = (v.slot, r)
            default:
                return nil
            }
            guard slot >= 0 else { return nil }
            switch rhs {
            case .expr(let e):
                steps.append(
                    Step(kind: .store, slot: slot, function: -1, hasArguments: false, integer: IntegerOperation(e)))
                expressions.append(e)
                arguments.append([])
            case .effect(.call(.function(let index, _), let args, _)):
                guard index >= 0, index < shapes.count, shapes[index].kind == .value else { return nil }
                steps.append(Step(kind: .call, slot: slot, function: index, hasArguments: !args.isEmpty, integer: nil))
                expressions.append(shapes[index].value)
                arguments.append(args)
            case .effect:
                return nil
            }
        }
        return LoweredLoop(
            condition: condition, body: body, steps: steps, expressions: expressions, arguments: arguments)
    }
}
