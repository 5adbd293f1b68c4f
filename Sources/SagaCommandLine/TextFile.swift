import SagaLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads small text files the command line is given (a mocks file), with the system calls
/// alone: Foundation's `String(contentsOfFile:)` keeps a buffer for ever when the file is
/// empty, which the leak sanitizer reports.
enum TextFile {
    /// The file's text (invalid UTF-8 repaired), or `nil` when it cannot be opened or read, or
    /// is a folder.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why the file at `path` cannot be read, in the words `sagarun` uses for a saga file
    /// (`no such file`, `it is a folder`, …): the reason `SourceLoader.readFromDisk` gives.
    static func whyUnreadable(_ path: String) -> String {
        guard case .failure(.unreadable(let reason)) = SourceLoader.readFromDisk(path) else { return "an I/O error" }
        return reason
    }
}
