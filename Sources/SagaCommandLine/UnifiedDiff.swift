/// A unified diff of two texts, line by line, with three lines of context: what
/// `sagarun test` prints for a golden file that does not match.
enum UnifiedDiff {
    private enum Edit {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// The most lines of hunks shown: past them, the rest is counted, not shown.
    static let maximumLines = 400
    /// The largest table the line-by-line comparison fills (lines that differ, one side by
    /// the other): past it, the differing lines are shown as all removed, then all added.
    static let maximumCells = 4_000_000

    static func render(expected: String, actual: String, expectedName: String, actualName: String) -> String {
        let a = lines(expected)
        let b = lines(actual)
        let edits = diff(a, b)
        var out = "--- \(expectedName)\n+++ \(actualName)\n"
        // Group edits into hunks with 3 lines of context.
        var i = 0
        var aLine = 1
        var bLine = 1
        var positions: [(Int, Int)] = []
        for e in edits {
            positions.append((aLine, bLine))
            switch e {
            case .same:
                aLine += 1
                bLine += 1
            case .removed: aLine += 1
            case .added: bLine += 1
            }
        }
        var shown = 0
        while i < edits.count {
            if case .same = edits[i] {
                i += 1
                continue
            }
            guard shown < maximumLines else {
                let more = edits[i...].reduce(0) { count, e in if case .same = e { count } else { count + 1 } }
                out += "... \(more) more lines differ\n"
                break
            }
            let start = max(0, i - 3)
            var end = i
            var lastChange = i
            while end < edits.count {
                if case .same = edits[end] {
                    if end - lastChange > 6 { break }
                } else {
                    lastChange = end
                }
                end += 1
            }
            // A hunk longer than what may still be shown is cut there (its header counts the
            // lines shown).
            end = min(edits.count, lastChange + 4, start + maximumLines - shown)
            var aCount = 0
            var bCount = 0
            var body = ""
            for e in edits[start..<end] {
                switch e {
                case .same(let l):
                    body += " \(l)\n"
                    aCount += 1
                    bCount += 1
                case .removed(let l):
                    body += "-\(l)\n"
                    aCount += 1
                case .added(let l):
                    body += "+\(l)\n"
                    bCount += 1
                }
            }
            let (aStart, bStart) = positions[start]
            // An empty side names the line before it, as diff -u does (`-0,0` for an empty file).
            out +=
                "@@ -\(aCount == 0 ? aStart - 1 : aStart),\(aCount) +\(bCount == 0 ? bStart - 1 : bStart),\(bCount) @@\n"
                + body
            shown += end - start
            i = end
        }
        if differsOnlyAtLineEnds(edits) {
            out += "(some lines differ only in spaces or tabs at their end)\n"
        }
        return out
    }

    /// Whether a removed line and an added line differ only in white space at their end:
    /// shown one above the other, they would look the same.
    private static func differsOnlyAtLineEnds(_ edits: [Edit]) -> Bool {
        func trimmed(_ line: String) -> Substring {
            var end = line.endIndex
            while end > line.startIndex, line[line.index(before: end)] == " " || line[line.index(before: end)] == "\t" {
                end = line.index(before: end)
            }
            return line[..<end]
        }
        var removed = Set<Substring>()
        var added: [String] = []
        for e in edits {
            switch e {
            case .removed(let l): removed.insert(trimmed(l))
            case .added(let l): added.append(l)
            case .same: break
            }
        }
        return added.contains { removed.contains(trimmed($0)) }
    }

    private static func lines(_ text: String) -> [String] {
        var parts = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    /// The lines both texts start with and end with, kept as they are, and a
    /// longest-common-subsequence diff of the lines between, whose table is bounded by
    /// ``maximumCells`` (past it, those lines are all removed, then all added).
    private static func diff(_ a: [String], _ b: [String]) -> [Edit] {
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        let (cells, overflow) = (middleA.count + 1).multipliedReportingOverflow(by: middleB.count + 1)
        let middle =
            overflow || cells > maximumCells
            ? middleA.map(Edit.removed) + middleB.map(Edit.added) : longestCommonSubsequence(middleA, middleB)
        return a[..<prefix].map(Edit.same) + middle + a[(a.count - suffix)...].map(Edit.same)
    }

    private static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count
        let m = b.count
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < n, j < m {
            if a[i] == b[j] {
                edits.append(.same(a[i]))
                i += 1
                j += 1
            } else if lcs[i + 1][j] >= lcs[i][j + 1] {
                edits.append(.removed(a[i]))
                i += 1
            } else {
                edits.append(.added(b[j]))
                j += 1
            }
        }
        while i < n {
            edits.append(.removed(a[i]))
            i += 1
        }
        while j < m {
            edits.append(.added(b[j]))
            j += 1
        }
        return edits
    }
}
