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
    /// The values of the entries that have ended, by entry: an `all`'s, made when its first
    /// entry ends (a `race` keeps none).
    var results: [Value] = []
    /// How many entries there are.
    let count: Int
    var remaining: Int
    var isSettled = false

    init(kind: Kind, owner: SagaTask, keys: [String], count: Int) {
        self.kind = kind
        self.owner = owner
        self.keys = keys
        self.count = count
        self.remaining = count
    }
}
