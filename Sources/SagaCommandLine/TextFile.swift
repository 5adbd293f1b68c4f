import Foundation
import SagaLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads small text files the command line is given (a mocks file), and writes the ones it
/// makes (a golden file), with the system calls alone: Foundation's `String(contentsOfFile:)`
/// keeps a buffer for ever when the file is empty, which the leak sanitizer reports, and its
/// write errors name no cause (`NSCocoaErrorDomain error 512`).
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

    /// Writes `text` to `path`, whole or not at all; returns why it could not, or `nil`.
    ///
    /// The text goes into a new file beside `path`, which is then renamed over it. A `path`
    /// that is not a file (a device such as `/dev/stdout` or `/dev/full`, a pipe) is written
    /// to where it is: renaming over it would replace it. The reason is in the system's words
    /// (`Permission denied`, `No space left on device`), or `it is a folder`.
    static func write(_ text: String, to path: String) -> String? {
        var info = stat()
        // A file replaced keeps its permissions.
        var mode: mode_t?
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return "it is a folder"
            case S_IFREG: mode = info.st_mode & 0o7777
            default:
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { return reason(errno) }
                var failure = writeAll(text, to: fd)
                if close(fd) != 0, failure == nil { failure = errno }
                return failure.map(reason)
            }
        }
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason(errno) }
        var failure = writeAll(text, to: fd)
        if failure == nil, let mode, fchmod(fd, mode) != 0 { failure = errno }
        if close(fd) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, path) != 0 { failure = errno }
        guard let failure else { return nil }
        unlink(temporary)
        return reason(failure)
    }

    /// Whether `path` can be written, found before a run that writes it at its end: `nil`, or
    /// why not, as ``write(_:to:)`` says it.
    ///
    /// A new file is made there, empty; a file or device that is there is left as it is.
    static func canWrite(_ path: String) -> String? {
        if isFolder(path) { return "it is a folder" }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return reason(errno) }
        close(fd)
        return nil
    }

    /// Writes every byte of `text` to `fd`: the `errno` of a failed write, or `nil`.
    private static func writeAll(_ text: String, to fd: Int32) -> Int32? {
        var failure: Int32?
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        return failure
    }

    /// Whether `path` names a folder.
    static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The system's words for `code` (`Permission denied`).
    private static func reason(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
