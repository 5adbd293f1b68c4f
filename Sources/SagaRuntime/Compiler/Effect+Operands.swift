import SagaLanguage

extension Effect {
    /// The expressions the effect computes where its statement stands, in the order it reads
    /// them: the code computes them into places before the statement runs, and the effect
    /// reads their values (see ``EffectOperands``).
    ///
    /// What the effect computes elsewhere is not among them: the entries of a `race` or an
    /// `all`, which run as tasks of their own, a `take`'s `where` condition, which is tested
    /// against each action, a `select`'s expression, which reads the state, the arguments
    /// of a host function a `fork` calls in its own task, and a `retry`'s wait.
    var operands: [Expr] {
        switch self {
        case .take(.expr(let pattern), _, _): return [pattern]
        case .take(.any, _, _), .select, .race, .allRecord, .allList, .watcher: return []
        case .put(let first, let second, _): return second.map { [first, $0] } ?? [first]
        case .call(_, let arguments, _): return arguments
        case .fork(.call(.function, let arguments), _), .spawn(.call(.function, let arguments), _): return arguments
        case .fork, .spawn: return []
        case .join(let task, _): return [task]
        case .cancel(let task, _): return task.map { [$0] } ?? []
        case .delay(let duration, let value, _): return value.map { [duration, $0] } ?? [duration]
        case .allFor(_, let list, _, _): return [list]
        case .retry(let count, _, _, _, _): return [count]
        case .channel(let buffer, _, _): return buffer.map { [$0] } ?? []
        case .actionChannel(let pattern, let buffer, _, _):
            var operands = buffer.map { [$0] } ?? []
            if case .expr(let e) = pattern { operands.append(e) }
            return operands
        case .close(let channel, _), .flush(let channel, _): return [channel]
        }
    }
}
