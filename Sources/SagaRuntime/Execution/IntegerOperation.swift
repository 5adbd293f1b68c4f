import SagaCore
import SagaLanguage

/// `a op b` where each side is an integer literal or a variable, worked out with no
/// evaluator when both sides hold integers and the operator needs nothing else (see
/// ``Evaluator/integerBinary(_:_:_:)``).
struct IntegerOperation {
    /// A side: a variable's slot, or a literal.
    enum Operand {
        case slot(Int)
        case literal(Int)
    }

    let op: BinaryOperator
    let lhs: Operand
    let rhs: Operand

    /// `nil` unless `expr` has that shape.
    init?(_ expr: Expr) {
        guard case .binary(let op, let l, let r, _) = expr, let lhs = Self.operand(l), let rhs = Self.operand(r) else {
            return nil
        }
        self.op = op
        self.lhs = lhs
        self.rhs = rhs
    }

    private static func operand(_ e: Expr) -> Operand? {
        switch e {
        case .literal(.int(let x), _): return .literal(x)
        case .variable(let v) where v.slot >= 0: return .slot(v.slot)
        default: return nil
        }
    }

    /// The value, or `nil` when a side is not an integer or the operator must be left to the
    /// evaluator (an overflow, a division, `&&`, `||`, `??`).
    @inline(__always)
    func value(_ env: [Value]) -> Value? {
        guard let x = Self.integer(lhs, env), let y = Self.integer(rhs, env) else { return nil }
        return Evaluator.integerBinary(op, x, y)
    }

    @inline(__always)
    private static func integer(_ operand: Operand, _ env: [Value]) -> Int? {
        switch operand {
        case .literal(let x):
            return x
        case .slot(let slot):
            guard slot < env.count, case .int(let x) = env[slot] else { return nil }
            return x
        }
    }
}
