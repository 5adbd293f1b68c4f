extension Record: Equatable {
    public static func == (lhs: Record, rhs: Record) -> Bool {
        // The same storage is equal without a walk (as `Array`'s `==` does): a value whose parts
        // are shared (`r = {a: r, b: r}`, repeated) would take exponential time otherwise.
        if let same = lhs.storageIdentity, same == rhs.storageIdentity { return true }
        if case .typed(let x) = lhs.storage, case .typed(let y) = rhs.storage {
            return Value.string(x) == Value.string(y)
        }
        if case .flat(let x) = lhs.storage, case .flat(let y) = rhs.storage {
            guard x.count == y.count else { return false }
            for i in x.indices where !Record.sameKey(x[i].key, y[i].key) || x[i].value != y[i].value {
                return false
            }
            return true
        }
        // A chunked record may equal a flat one (a large record that lost keys), and chunks
        // need not be cut alike: compared entry by entry.
        guard lhs.count == rhs.count else { return false }
        for (a, b) in zip(lhs, rhs) where !Record.sameKey(a.key, b.key) || a.value != b.value {
            return false
        }
        return true
    }
}

extension Record: Hashable {
    /// Hashes a bounded part of the record, as ``Value/hash(into:)`` does.
    public func hash(into hasher: inout Hasher) {
        var budget = Value.hashedValues
        hash(into: &hasher, budget: &budget)
    }

    func hash(into hasher: inout Hasher, budget: inout Int) {
        hasher.combine(count)
        for e in self {
            guard budget > 0 else { return }
            hasher.combine(e.key)
            e.value.hash(into: &hasher, budget: &budget)
        }
    }
}
