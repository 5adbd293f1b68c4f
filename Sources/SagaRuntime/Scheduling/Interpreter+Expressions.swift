import SagaCore

extension Interpreter {
    /// The value of an expression's code (see ``Code/init(expression:slotCount:)``): `it` is
    /// `action`, and the variables are `env`, a waiting task's, which the code only reads.
    func value(of code: Code, it action: Value, env: [Value]) throws(SagaError) -> Value {
        let room = expressionRoom.room(for: code.roomCount)
        var it = action
        let ev = Evaluator(cancelled: false, clock: clock, maxLength: options.maxLength, memory: budget.memoryWatch)
        var pc = 0
        var steps = CodeSteps(reducer: reducers)
        return try env.withUnsafeBufferPointer { (variables) throws(SagaError) -> Value in
            // Read only: the code computes an expression, which writes temporaries alone.
            let slots = variables.baseAddress.map { UnsafeMutablePointer(mutating: $0) } ?? room
            do throws(SagaError) {
                let exit = try reducers.run(code, &it, slots, action: .null, room, ev, pc: &pc, steps: &steps)
                guard case .returns(let place) = exit else { return .null }
                let places = CodePlaces(
                    slots: slots, temporaries: room, constants: code.constantBase, locals: room + code.temporaryCount)
                return places.read(place)
            } catch {
                expressionRoom.empty(code.roomCount)
                throw error
            }
        }
    }
}
