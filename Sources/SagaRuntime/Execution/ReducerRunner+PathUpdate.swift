import SagaCore
import SagaLanguage

extension ReducerRunner {
    /// `state.P = state.P op operand` for the path `keys` (more than one step, or an index),
    /// `current` holding what reading `state.P` gave, with the values, errors and undo log of
    /// computing `current op operand` and storing it through the path.
    ///
    /// A list or string that `+` extends is extended where it lies: `current` lets go of it
    /// first, so that the state's is the only reference. Building a new one would make n
    /// appends through a path take time in n².
    func update(
        _ state: inout Value, through keys: [PathAssignment.Key], _ op: BinaryOperator, current: inout Value,
        operand: Value, _ ev: Evaluator
    ) throws(SagaError) {
        if case .add = op, let length = Self.extensionLength(current, by: operand) {
            // The checks of `current + operand` stored at the path, in their order: the
            // length (in `update`), then the depth at the path's level (a list's items are as
            // deep as the deeper of the two lists' items; the stored one passed it already).
            if case .list(let more) = operand {
                try Value.checkListCount(length + more.count)
                try ev.checkLength(count: length + more.count)
                try Value.checkDepth(of: operand, at: keys.count)
            }
            // Logged first: if the path is not all there after all (it is, where reading it
            // gave a list or string), the entry finds nothing to cut, and the general way below
            // logs what it changes.
            if logging { undo.willExtend(state, through: keys, count: length) }
            // One walk down the path, which lets go of `current` only at its end, where the
            // state's value is about to be extended.
            let found = try PathAssignment.update(&state, keys[...]) { (value: inout Value) throws(SagaError) in
                current = .null
                try ev.update(&value, op, operand)
            }
            if found { return }
        }
        let value = try ev.apply(op, current, operand)
        current = .null
        if logging { undo.willAssign(state, through: keys) }
        try PathAssignment.set(&state, keys[...], value)
    }

    /// The length of a list (items) or a string (UTF-8 bytes) that `+ operand` extends, or nil.
    private static func extensionLength(_ value: Value, by operand: Value) -> Int? {
        switch value {
        case .list(let items): if case .list = operand { return items.count }
        case .string(let text): if case .string = operand { return text.utf8.count }
        default: break
        }
        return nil
    }
}
