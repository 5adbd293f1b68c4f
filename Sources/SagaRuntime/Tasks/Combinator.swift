import SagaCore

/// The shared state of a `race` or an `all`: its entries run as owned tasks, and the first
/// to finish (race), or the last (all), or the first error, wakes the owner.
final class Combinator {
    enum Kind {
        case race
        case allRecord
        case allList
    }

    let kind: Kind
    let owner: SagaTask
    let keys: [String]
    var entries: [SagaTask] = []
    var results: [Value]
    var remaining: Int
    var isSettled = false

    init(kind: Kind, owner: SagaTask, keys: [String], count: Int) {
        self.kind = kind
        self.owner = owner
        self.keys = keys
        self.results = Array(repeating: .null, count: count)
        self.remaining = count
    }
}
