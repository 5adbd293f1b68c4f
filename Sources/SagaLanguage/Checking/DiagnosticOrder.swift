import SagaCore

/// Puts diagnostics in the order a reader expects: by file, line and column, with every
/// note kept right after the diagnostic it belongs to (wherever the note points).
enum DiagnosticOrder {
    /// `diagnostics` sorted by the location of each error or warning; notes travel with the
    /// diagnostic before them.
    ///
    /// Equal locations keep their original order.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var groups: [[Diagnostic]] = []
        for diagnostic in diagnostics {
            if diagnostic.severity == .note, !groups.isEmpty {
                groups[groups.count - 1].append(diagnostic)
            } else {
                groups.append([diagnostic])
            }
        }
        let ordered = groups.enumerated().sorted { a, b in
            let l = a.element[0].location
            let r = b.element[0].location
            if l.file != r.file { return l.file < r.file }
            if l.line != r.line { return l.line < r.line }
            if l.column != r.column { return l.column < r.column }
            return a.offset < b.offset
        }
        return ordered.flatMap(\.element)
    }
}
