import SagaCore

extension Query {
    /// One test of a field's value: an operator of a `where` operator record and its operand.
    enum Test: Sendable {
        case equal(Value)
        case notEqual(Value)
        case less(Value)
        case lessOrEqual(Value)
        case greater(Value)
        case greaterOrEqual(Value)
        case oneOf([Value])
        case contains(Value)
        case prefix(String)

        /// The query operators (see “Queries” in Sagas/README.md), in the order error messages
        /// list them.
        static let operators = ["==", "!=", "<", "<=", ">", ">=", "in", "contains", "prefix"]

        /// The test for operator `op` with `operand`.
        static func make(_ op: String, _ operand: Value, field: String) throws(StoreError) -> Test {
            switch op {
            case "==": return .equal(operand)
            case "!=": return .notEqual(operand)
            case "<": return .less(operand)
            case "<=": return .lessOrEqual(operand)
            case ">": return .greater(operand)
            case ">=": return .greaterOrEqual(operand)
            case "in":
                guard case .list(let items) = operand else {
                    throw .invalidQuery("'in' of field '\(field)' needs a list, not a \(operand.kindName)")
                }
                return .oneOf(items)
            case "contains": return .contains(operand)
            case "prefix":
                guard case .string(let s) = operand else {
                    throw .invalidQuery("'prefix' of field '\(field)' needs a string, not a \(operand.kindName)")
                }
                return .prefix(s)
            default:
                throw .invalidQuery(
                    "unknown operator '\(op)' for field '\(field)' (expected one of \(operators.joined(separator: " ")))"
                )
            }
        }

        /// Whether `value` (the field's value) passes this test.
        func holds(for value: Value) -> Bool {
            switch self {
            case .equal(let x): return value == x
            case .notEqual(let x): return value != x
            case .less(let x): return Test.sameKind(value, x) && ValueOrder.compare(value, x) < 0
            case .lessOrEqual(let x): return Test.sameKind(value, x) && ValueOrder.compare(value, x) <= 0
            case .greater(let x): return Test.sameKind(value, x) && ValueOrder.compare(value, x) > 0
            case .greaterOrEqual(let x): return Test.sameKind(value, x) && ValueOrder.compare(value, x) >= 0
            case .oneOf(let items): return items.contains(value)
            case .contains(let x):
                switch (value, x) {
                case (.list(let items), _): return items.contains(x)
                case (.string(let s), .string(let sub)): return Test.contains(s, sub)
                default: return false
                }
            case .prefix(let p):
                guard case .string(let s) = value else { return false }
                return s.utf8.starts(with: p.utf8)
            }
        }

        private static func sameKind(_ a: Value, _ b: Value) -> Bool {
            ValueOrder.rank(a) == ValueOrder.rank(b)
        }

        /// Substring search over UTF-8 bytes (Unicode scalar semantics, as `==` on strings).
        private static func contains(_ s: String, _ sub: String) -> Bool {
            let hay = Array(s.utf8)
            let needle = Array(sub.utf8)
            if needle.isEmpty { return true }
            if needle.count > hay.count { return false }
            let first = needle[0]
            var i = 0
            let last = hay.count - needle.count
            while i <= last {
                if hay[i] == first {
                    var j = 1
                    while j < needle.count, hay[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return true }
                }
                i += 1
            }
            return false
        }
    }
}
