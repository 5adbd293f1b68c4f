extension Value {
    /// How deeply lists and records may nest: the same bound as the JSON reader's. Deeper
    /// values would overflow the stack when they are compared, printed or freed.
    public static let maxDepth = 512

    /// Whether this value nests more than `limit` levels of lists and records (a scalar is
    /// level 0). Stops as soon as the answer is known.
    public func nests(deeperThan limit: Int) -> Bool {
        switch self {
        case .list(let items):
            if limit <= 0 { return true }
            for item in items where item.isContainer && item.nests(deeperThan: limit - 1) { return true }
            return false
        case .record(let r):
            if limit <= 0 { return true }
            for e in r.entries where e.value.isContainer && e.value.nests(deeperThan: limit - 1) { return true }
            return false
        default:
            return false
        }
    }

    /// `true` for lists and records.
    @inlinable
    public var isContainer: Bool {
        switch self {
        case .list, .record: return true
        default: return false
        }
    }

    /// Throws a `RangeError` if `child`, placed `levels` deep inside a new value, would make
    /// that value nest deeper than ``maxDepth``.
    public static func checkDepth(of child: Value, at levels: Int = 1) throws(SagaError) {
        guard child.isContainer, child.nests(deeperThan: maxDepth - levels) else { return }
        throw SagaError(kind: "RangeError", message: "a value may nest at most \(maxDepth) levels of lists and records")
    }
}
