import SagaCore
import SagaLanguage

extension Evaluator {
    /// `value = value op operand`, as a reducer's `state.key = state.key op operand` stores it
    /// (the operator, then the depth check of the value stored), with the same values and
    /// errors; `value` is left as it was when it throws.
    ///
    /// `+` of a list or a string extends it where it is rather than build a new one (a copy
    /// each time would make n appends take time in n²). Only `operand`'s depth is checked
    /// then: the stored list or string was checked when it was stored, and the longer one
    /// nests as deep as the deeper of the two.
    func update(_ value: inout Value, _ op: BinaryOperator, _ operand: Value) throws(SagaError) {
        // Two integers, the usual counter: the operator's value, which nests no deeper.
        if case .int(let x) = value, case .int(let y) = operand, let result = Self.integerBinary(op, x, y) {
            value = result
            return
        }
        // Matched, not compared: `==` of an operator is a call through its conformance.
        if case .add = op, try extend(&value, with: operand, checkingDepth: true) { return }
        let result = try apply(op, value, operand)
        try Value.checkDepth(of: result)
        value = result
    }

    /// `variable = variable + operand`, with the same value and errors as `+`.
    ///
    /// A list or a string is extended where the variable holds it rather than built anew (a
    /// saga or a reducer growing a list one item at a time would take time in n² otherwise).
    /// The variable is unchanged when it throws.
    @inline(__always)
    func add(_ operand: Value, to variable: inout Value) throws(SagaError) {
        if case .int(let x) = variable, case .int(let y) = operand, let sum = Self.integerBinary(.add, x, y) {
            variable = sum
            return
        }
        if try extend(&variable, with: operand, checkingDepth: false) { return }
        variable = try apply(.add, variable, operand)
    }

    /// `value = value + operand` for a list and a list, or a string and a string, extended in
    /// place with the checks `+` makes: the count, then ``maxLength``; then, if
    /// `checkingDepth`, the depth of a list `operand` (as a value stored in the state is
    /// checked).
    ///
    /// - Returns: `false`, with `value` unchanged, for any other pair.
    private func extend(_ value: inout Value, with operand: Value, checkingDepth: Bool) throws(SagaError) -> Bool {
        // Matched one at a time: a tuple of the two would hold a second reference to the list.
        if case .list(let more) = operand, case .list(var items) = value {
            let count = items.count + more.count
            try Value.checkListCount(count)
            try checkLength(count: count)
            if checkingDepth { try Value.checkDepth(of: operand) }
            value = .null  // drop the variable's reference so that the list is extended in place
            items.append(contentsOf: more)
            value = .list(items)
            return true
        }
        if case .string(let more) = operand, case .string(var text) = value {
            let bytes = text.utf8.count + more.utf8.count
            try Value.checkTextLength(bytes)
            try checkLength(count: bytes)
            value = .null
            text.append(more)
            value = .string(text)
            return true
        }
        return false
    }
}
