/// One message about a program: an error, a warning or a note, with where it points.
///
/// Rendered as swiftc and clang do:
///
/// ```
/// counter.saga:3:9: error: unknown variable 'cuont'; did you mean 'count'?
///     log cuont
///         ^
/// ```
public struct Diagnostic: Sendable, Hashable {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable {
        case error
        case warning
        case note
    }

    /// How serious it is.
    public var severity: Severity
    /// The message, without location or severity.
    public var message: String
    /// Where it points.
    public var location: SourceLocation

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// An error diagnostic.
    public static func error(_ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    /// The diagnostic as text: `FILE:LINE:COLUMN: error: MESSAGE`, the source line, and a
    /// caret; with `colors`, the severity and the caret in ANSI colours (for a terminal).
    public func rendered(files: [SourceFile], colors: Bool) -> String {
        let plain = rendered(files: files)
        guard colors else { return plain }
        let color: String
        switch severity {
        case .error: color = "\u{1B}[1;31m"
        case .warning: color = "\u{1B}[1;35m"
        case .note: color = "\u{1B}[1;90m"
        }
        let reset = "\u{1B}[0m"
        var lines = plain.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let first = lines.first, let range = first.range(of: " \(severity.rawValue): ") {
            let bold = "\u{1B}[1m"
            let place = String(first[..<range.lowerBound])
            let message = String(first[range.upperBound...])
            let label = color + severity.rawValue + ":" + reset
            lines[0] = bold + place + reset + " " + label + " " + bold + message + reset
        }
        if lines.count >= 3, let caret = lines.last, caret.hasSuffix("^") {
            lines[lines.count - 1] = String(caret.dropLast()) + "\u{1B}[1;32m^" + reset
        }
        return lines.joined(separator: "\n")
    }

    /// `line` with each control character but tab shown as U+FFFD: a NUL or an escape sequence
    /// in a source file must not reach the terminal (an escape could recolour or rewrite it).
    ///
    /// One scalar for one, so the caret below still lines up.
    static func printable(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: isControl) else { return line }
        var out = String.UnicodeScalarView()
        for scalar in line.unicodeScalars {
            out.append(isControl(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
    }

    /// A source line longer than this (in Unicode scalars) is shown in part.
    static let longLine = 200
    /// How much of a long line is shown, around the column.
    static let shownWidth = 120

    /// The diagnostic as text: `FILE:LINE:COLUMN: error: MESSAGE`, the source line, and a caret.
    public func rendered(files: [SourceFile]) -> String {
        let index = Int(location.file)
        guard index >= 0, index < files.count else {
            return "\(severity.rawValue): \(message)"
        }
        let file = files[index]
        var out = "\(file.path):\(location.line):\(location.column): \(severity.rawValue): \(message)"
        let text = file.line(Int(location.line))
        if !text.isEmpty || location.line > 0 {
            // A long line is shown as the part around the column, `…` where it is cut.
            let scalars = Array(text.unicodeScalars)
            let column = max(1, Int(location.column))
            var shown = 0..<scalars.count
            if scalars.count > Self.longLine {
                let start = max(0, min(column - 1 - Self.shownWidth / 2, scalars.count - Self.shownWidth))
                shown = start..<min(scalars.count, start + Self.shownWidth)
            }
            let before = shown.lowerBound > 0 ? "…" : ""
            let after = shown.upperBound < scalars.count ? "…" : ""
            var line = String.UnicodeScalarView()
            line.append(contentsOf: scalars[shown])
            out += "\n" + before + Diagnostic.printable(String(line)) + after + "\n"
            var caret = before.isEmpty ? "" : " "
            for scalar in scalars[shown.lowerBound..<min(max(shown.lowerBound, column - 1), shown.upperBound)] {
                caret.append(scalar == "\t" ? "\t" : " ")
            }
            out += caret + "^"
        }
        return out
    }
}
