import Foundation
import SagaCore

/// Reads a root file and, depth-first, every file it imports, parsing each once.
///
/// File indices are handed out in the order files are first read (the root is 0). The
/// parsed units come out in merge order: a file's imports' declarations before its own,
/// depth-first in import order, so a diamond's shared file comes first, once.
package struct SourceLoader {
    /// Why a file could not be turned into text.
    package enum ReadFailure: Error {
        /// There is nothing at that path, or it cannot be opened.
        case unreadable(String)
    }

    /// Every file read, indexed by file index.
    private(set) var files: [SourceFile] = []
    /// Parsed files in merge order.
    private(set) var units: [SourceUnit] = []
    /// Reading and parsing diagnostics.
    private(set) var diagnostics: [Diagnostic] = []
    /// Paths that could not be read, each once.
    private(set) var unreadableFiles: [String] = []
    /// The identifiers of every file parsed, numbered once for the whole program.
    private var names = NameInterner()

    /// Identity keys of files already read (or being read).
    private var readKeys: Set<String> = []
    /// The import chain being followed, to find cycles: identity key and shown path.
    private var chain: [(key: String, path: String)] = []
    /// Reads a file's bytes; replaceable so tests need no failing disk.
    private let readFile: (String) -> Result<[UInt8], ReadFailure>
    /// When a large file is parsed in pieces, on several threads.
    var pieces = ParsePieces.automatic
    /// Whether each reducer, saga and function is checked as soon as it is parsed, and then
    /// let go of (``CheckingSink``), rather than kept for the checker.
    var checksWhileParsing = false

    /// Creates a loader that reads through `readFile` (the disk by default).
    init(readFile: @escaping (String) -> Result<[UInt8], ReadFailure> = SourceLoader.readFromDisk) {
        self.readFile = readFile
    }

    /// Reads and parses the file at `path` and everything it imports.
    mutating func load(path: String) {
        switch readFile(path) {
        case .failure(.unreadable(let reason)):
            unreadableFiles.append(path)
            diagnostics.append(.error("cannot read '\(path)': \(reason)", at: .unknown))
        case .success(let bytes):
            if let file = decode(bytes, path: path) {
                visit(file, index: Int32(files.count - 1))
            }
        }
    }

    /// The parsed units, which the loader no longer holds: the checker changes the tree in
    /// place where nothing else refers to it.
    mutating func takeUnits() -> [SourceUnit] {
        let taken = units
        units = []
        return taken
    }

    /// The numbered identifiers of the files parsed, which the loader no longer holds (the
    /// checker numbers more names in them only if a variable came without a number).
    mutating func takeNames() -> NameInterner {
        var taken = NameInterner()
        swap(&taken, &names)
        return taken
    }

    /// Parses `source` as the root file at `path`, and reads what it imports from disk.
    mutating func load(source: String, path: String) {
        let source = Self.withoutByteOrderMark(source)
        files.append(SourceFile(path: path, text: source))
        readKeys.insert(Self.identity(of: path))
        visit(SourceFile(path: path, text: source), index: 0)
    }

    /// `text` without the byte-order mark an editor may have put first (U+FEFF): a file is
    /// read as if it had none.
    package static func withoutByteOrderMark(_ text: String) -> String {
        text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
    }

    /// The UTF-8 bytes of a byte-order mark.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a byte-order mark at their start (see ``withoutByteOrderMark(_:)``).
    package static func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
        bytes.starts(with: byteOrderMark) ? Array(bytes.dropFirst(byteOrderMark.count)) : bytes
    }

    /// Parses a file already in the table, follows its imports, then adds its unit.
    private mutating func visit(_ file: SourceFile, index: Int32) {
        let key = Self.identity(of: file.path)
        readKeys.insert(key)
        chain.append((key, file.path))
        defer { chain.removeLast() }
        let (fileUnits, parseDiagnostics) =
            checksWhileParsing
            ? Parser.parseUnits(file, fileIndex: index, names: &names, pieces: pieces, into: CheckingSink.self)
            : Parser.parseUnits(file, fileIndex: index, names: &names, pieces: pieces, into: DeclarationList.self)
        diagnostics += parseDiagnostics
        for unit in fileUnits {
            for case .import(let relative, let location) in unit.declarations {
                follow(import: relative, from: file.path, at: location)
            }
        }
        units += fileUnits
    }

    /// Reads and visits an imported file, unless it was read already or closes a cycle.
    private mutating func follow(import relative: String, from importer: String, at location: SourceLocation) {
        let path = Self.resolve(relative, from: importer)
        let key = Self.identity(of: path)
        if let start = chain.firstIndex(where: { $0.key == key }) {
            let cycle = (chain[start...].map(\.path) + [path]).joined(separator: " → ")
            diagnostics.append(.error("import cycle: \(cycle)", at: location))
            return
        }
        guard !readKeys.contains(key) else { return }
        readKeys.insert(key)
        switch readFile(path) {
        case .failure(.unreadable(let reason)):
            unreadableFiles.append(path)
            diagnostics.append(.error("cannot read imported file '\(path)': \(reason)", at: location))
        case .success(let bytes):
            if let file = decode(bytes, path: path) {
                visit(file, index: Int32(files.count - 1))
            }
        }
    }

    /// Adds the file to the table and returns it, or reports where its UTF-8 goes wrong (the
    /// file stays in the table, lossily decoded, so the diagnostic can show the line).
    private mutating func decode(_ bytes: [UInt8], path: String) -> SourceFile? {
        let bytes = Self.withoutByteOrderMark(bytes)
        if let text = String(validating: bytes, as: UTF8.self) {
            let file = SourceFile(path: path, text: text)
            files.append(file)
            return file
        }
        let index = Int32(files.count)
        files.append(SourceFile(path: path, text: String(decoding: bytes, as: UTF8.self)))
        var location = Self.firstInvalidByte(in: bytes)
        location.file = index
        diagnostics.append(.error("'\(path)' is not valid UTF-8", at: location))
        return nil
    }

    /// The line and column of the first byte that is not valid UTF-8.
    private static func firstInvalidByte(in bytes: [UInt8]) -> SourceLocation {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line: Int32 = 1
        var column: Int32 = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput, .error:
                return SourceLocation(line: line, column: column)
            }
        }
    }

    /// An import's path as shown to the user: relative to the importing file's folder, unless
    /// it is absolute.
    static func resolve(_ relative: String, from importer: String) -> String {
        guard !relative.hasPrefix("/"), let slash = importer.lastIndex(of: "/") else { return relative }
        return String(importer[...slash]) + relative
    }

    /// A key that is the same for every way of naming one file (`./a.saga`, `x/../a.saga`,
    /// a symbolic link).
    static func identity(of path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// The largest source file read: 64 MiB.
    static let maxFileSize = 64 << 20

    /// Reads a whole file from disk, up to ``maxFileSize``.
    ///
    /// A file that never ends (`import "/dev/zero"`) must not take all memory. A pipe
    /// (`sagarun run <(…)`) is fine.
    ///
    /// A regular file is read straight into an array of its size, in one call or few: through
    /// `FileHandle`, a large file would be read in many small reads into a growing buffer,
    /// then copied twice.
    package static func readFromDisk(_ path: String) -> Result<[UInt8], ReadFailure> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(.unreadable("no such file"))
        }
        guard !isDirectory.boolValue else { return .failure(.unreadable("it is a folder")) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(.unreadable("permission denied or an I/O error")) }
        defer { close(fd) }
        var status = stat()
        let isRegular = fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        // One byte more than the size, so that a file that grew is read on below.
        let expected = isRegular ? min(max(Int(status.st_size), 0), maxFileSize) + 1 : 64 << 10
        var failed = false
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = readFully(fd, into: buffer, failed: &failed)
        }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while !failed, bytes.count == expected || !isRegular, bytes.count <= maxFileSize {
            let count = chunk.withUnsafeMutableBufferPointer { readFully(fd, into: $0, failed: &failed) }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard !failed else { return .failure(.unreadable("an I/O error")) }
        guard bytes.count <= maxFileSize else {
            return .failure(.unreadable("it is larger than \(maxFileSize >> 20) MiB"))
        }
        return .success(bytes)
    }

    /// Reads from `fd` until `buffer` is full or the file ends; how many bytes it read.
    ///
    /// Sets `failed` on an error other than an interruption.
    private static func readFully(
        _ fd: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, failed: inout Bool
    ) -> Int {
        var count = 0
        while count < buffer.count {
            let n = read(fd, buffer.baseAddress.map { $0 + count }, buffer.count - count)
            if n > 0 {
                count += n
            } else if n == 0 {
                break
            } else if errno != EINTR {
                failed = true
                break
            }
        }
        return count
    }
}
