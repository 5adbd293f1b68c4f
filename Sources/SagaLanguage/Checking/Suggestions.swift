/// "Did you mean …?" for misspelt names: the closest candidate by edit distance.
package enum Suggestions {
    /// The candidate closest to `name`, if one is close enough to be a likely typo.
    ///
    /// Close enough means an edit distance of at most 1 for names of up to three characters and
    /// at most 2 otherwise (a short name is near too many others to guess). Ties go to the
    /// alphabetically first candidate, so the suggestion never depends on hashing order.
    static func closest<Names: Sequence<String>>(to name: String, in candidates: Names) -> String? {
        let limit = name.count <= 3 ? 1 : 2
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let distance = editDistance(name, candidate, limit: limit)
            guard distance <= limit else { continue }
            if let current = best,
                current.distance < distance || (current.distance == distance && current.name <= candidate)
            {
                continue
            }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// `"; did you mean 'x'?"`, or an empty string when nothing is close.
    package static func didYouMean<Names: Sequence<String>>(_ name: String, in candidates: Names) -> String {
        guard let match = closest(to: name, in: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// The Levenshtein distance between two names (in characters), or `limit + 1` as soon as it
    /// is certain to exceed `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a)
        let b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, character) in a.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (character == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
