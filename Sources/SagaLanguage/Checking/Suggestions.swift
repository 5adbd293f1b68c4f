/// "Did you mean …?" for misspelt names: the closest candidate by edit distance.
package enum Suggestions {
    /// The candidate closest to `name`, if one is close enough to be a likely typo.
    ///
    /// Close enough means an edit distance of at most 1 for names of up to three characters and
    /// at most 2 otherwise (a short name is near too many others to guess). Of candidates as
    /// close, one as long as `name` goes first (`frok` is `fork` with two letters swapped, not
    /// `for` with one more), then the alphabetically first, so the suggestion never depends on
    /// hashing order.
    static func closest<Names: Sequence<String>>(to name: String, in candidates: Names) -> String? {
        let limit = name.count <= 3 ? 1 : 2
        let length = name.count
        var best: (name: String, distance: Int, sameLength: Bool)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name, candidate, limit: limit)
            guard distance <= limit else { continue }
            let sameLength = candidate.count == length
            if let current = best {
                if current.distance < distance { continue }
                if current.distance == distance {
                    if current.sameLength && !sameLength { continue }
                    if current.sameLength == sameLength && current.name <= candidate { continue }
                }
            }
            best = (candidate, distance, sameLength)
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"`, or an empty string when nothing is close.
    package static func didYouMean<Names: Sequence<String>>(_ name: String, in candidates: Names) -> String {
        guard let match = closest(to: name, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// The edit distance between two names (in characters), counting a swap of two neighbouring
    /// characters as one edit, as an insertion, a deletion or a substitution is (the optimal
    /// string alignment distance); `limit + 1` as soon as it is certain to exceed `limit`.
    package static func editDistance(_ a: String, _ b: String, limit: Int = .max - 1) -> Int {
        let a = Array(a)
        let b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        // Three rows: the one before the previous, for a swap.
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, character) in a.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (character == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                if i > 0, j > 1, character == b[j - 2], a[i - 1] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&beforePrevious, &previous)
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
