extension Value {
    /// How deeply lists and records may nest: the same bound as the JSON reader's.
    ///
    /// Deeper values would overflow the stack when they are compared, printed or freed.
    public static let maxDepth = 512

    /// Whether this value nests more than `limit` levels of lists and records (a scalar is
    /// level 0).
    ///
    /// Stops as soon as the answer is known.
    ///
    /// A value whose parts are shared (`r = {a: r, b: r}`, repeated) is a tree exponentially
    /// larger than its memory: past a few thousand nodes the walk switches to one that visits
    /// each shared part once, so the check stays linear in the value's size in memory.
    public func nests(deeperThan limit: Int) -> Bool {
        var budget = 4096
        if let answer = nestsQuickly(deeperThan: limit, budget: &budget) { return answer }
        var known: [UnsafeRawPointer: Int] = [:]
        return nestsShared(deeperThan: limit, known: &known)
    }

    /// The plain walk, or `nil` once it has visited `budget` containers.
    private func nestsQuickly(deeperThan limit: Int, budget: inout Int) -> Bool? {
        switch self {
        case .list(let items):
            if limit <= 0 { return true }
            for item in items where item.isContainer {
                budget -= 1
                guard budget >= 0, let deeper = item.nestsQuickly(deeperThan: limit - 1, budget: &budget) else {
                    return nil
                }
                if deeper { return true }
            }
            return false
        case .record(let r):
            if limit <= 0 { return true }
            // The entries where they lie: a small record's array borrowed from the value (a
            // run copied out, or the iterator's copies, would retain and release each entry).
            switch r.storage {
            case .flat(let entries):
                return Value.entriesNestQuickly(entries, deeperThan: limit, budget: &budget)
            case .typed:
                return false
            case .chunked:
                break
            }
            for chunk in r.chunks {
                guard let deeper = Value.entriesNestQuickly(chunk, deeperThan: limit, budget: &budget) else {
                    return nil
                }
                if deeper { return true }
            }
            return false
        default:
            return false
        }
    }

    /// ``nestsQuickly(deeperThan:budget:)`` over a record's entries, one level down.
    private static func entriesNestQuickly(
        _ entries: [Record.Entry], deeperThan limit: Int, budget: inout Int
    ) -> Bool? {
        for i in entries.indices where entries[i].value.isContainer {
            budget -= 1
            guard budget >= 0, let deeper = entries[i].value.nestsQuickly(deeperThan: limit - 1, budget: &budget)
            else {
                return nil
            }
            if deeper { return true }
        }
        return false
    }

    /// The walk that measures each list and record storage once (its address names it: the
    /// value keeps it alive meanwhile): however many paths reach a shared part, at whatever
    /// depths, its own depth is the same.
    private func nestsShared(deeperThan limit: Int, known: inout [UnsafeRawPointer: Int]) -> Bool {
        depth(within: limit, known: &known) == nil
    }

    /// How many levels of lists and records this value nests (a scalar is 0), or `nil` once
    /// that is known to be more than `limit`; `known` holds the depth of each storage measured.
    private func depth(within limit: Int, known: inout [UnsafeRawPointer: Int]) -> Int? {
        let identity: UnsafeRawPointer?
        var deepest = 0
        switch self {
        case .list(let items):
            if limit <= 0 { return nil }
            identity = items.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
            if let identity, let depth = known[identity] { return depth <= limit ? depth : nil }
            for item in items where item.isContainer {
                guard let depth = item.depth(within: limit - 1, known: &known) else { return nil }
                deepest = Swift.max(deepest, depth)
            }
        case .record(let r):
            if limit <= 0 { return nil }
            // `{type: "…"}` holds no container.
            if r.isTyped { return 1 }
            identity = r.storageIdentity
            if let identity, let depth = known[identity] { return depth <= limit ? depth : nil }
            for k in 0..<r.runCount {
                let entries = r.run(k)
                for i in entries.indices where entries[i].value.isContainer {
                    guard let depth = entries[i].value.depth(within: limit - 1, known: &known) else { return nil }
                    deepest = Swift.max(deepest, depth)
                }
            }
        default:
            return 0
        }
        if let identity { known[identity] = deepest + 1 }
        return deepest + 1
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
