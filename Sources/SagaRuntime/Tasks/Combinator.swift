import SagaCore

/// The shared state of a `race` or an `all`: its entries run as owned tasks, and the first
/// to finish (race), or the last (all), or the first error, wakes the owner.
///
/// Its fields are unchecked for exclusivity, as a task's are: only the interpreter's thread
/// reaches them, and a dynamic check at each access would be a noticeable cost of each
/// `race` and `all`.
final class Combinator {
    enum Kind {
        case race
        case allRecord
        case allList
    }

    let kind: Kind
    let owner: SagaTask
    let keys: [String]
    @exclusivity(unchecked) var entries: [SagaTask] = []
    /// The values of the entries that have ended, by entry: an `all`'s, made when its first
    /// entry ends (a `race` keeps none).
    @exclusivity(unchecked) var results: [Value] = []
    /// How many entries there are.
    let count: Int
    @exclusivity(unchecked) var remaining: Int
    @exclusivity(unchecked) var isSettled = false

    init(kind: Kind, owner: SagaTask, keys: [String], count: Int) {
        self.kind = kind
        self.owner = owner
        self.keys = keys
        self.count = count
        self.remaining = count
        entries.reserveCapacity(count)
    }
}
