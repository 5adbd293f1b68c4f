import SagaCore

/// The lines of a listing (``ProgramListing``): numbered entries, each with the `line:column`
/// it comes from, and each source line shown once, above the first entry from it.
struct ListingLines {
    private let files: [SourceFile]
    private let indent: String
    /// How wide the widest entry number is.
    private let width: Int
    private var lastLine: (file: Int32, line: Int32)?
    /// The lines so far.
    private(set) var lines: [String] = []

    /// A listing of `count` entries, indented by `indent`.
    init(files: [SourceFile], indent: String, count: Int) {
        self.files = files
        self.indent = indent
        self.width = String(max(count - 1, 0)).count
    }

    /// Entry `index`, from `location` (none when it has no place in the source).
    mutating func append(_ index: Int, at location: SourceLocation?, _ text: String) {
        var at = "-"
        if let location, location.line > 0 {
            at = "\(location.line):\(location.column)"
            if lastLine.map({ $0.file != location.file || $0.line != location.line }) ?? true {
                lastLine = (location.file, location.line)
                let file = files.indices.contains(Int(location.file)) ? files[Int(location.file)] : nil
                let source = String(file?.line(Int(location.line)).drop(while: \.isWhitespace) ?? "")
                lines.append("\(indent); \(location.line): \(source)")
            }
        }
        let number = String(index)
        let padded = String(repeating: " ", count: width - number.count) + number
        lines.append("\(indent)\(padded)  \(at)\(String(repeating: " ", count: max(0, 7 - at.count))) \(text)")
    }
}
