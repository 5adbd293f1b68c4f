import SagaCore

extension Interpreter {
    /// The value of an expression's code (see ``Code/init(expression:slotCount:)``): `it` is
    /// `action`, and the variables are `env`, a waiting task's, which the code only reads.
    func value(of code: Code, it action: Value, env: [Value]) throws(SagaError) -> Value {
        let room = expressionRoom.room(for: code.roomCount)
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        return try env.withUnsafeBufferPointer { (variables) throws(SagaError) -> Value in
            // Read only: the code computes an expression, which writes temporaries alone.
            let slots = variables.baseAddress.map { UnsafeMutablePointer(mutating: $0) } ?? room
            do throws(SagaError) {
                return try vm.value(of: code, it: action, slots: slots, room: room, ev)
            } catch {
                expressionRoom.empty(code.roomCount)
                throw error
            }
        }
    }
}
