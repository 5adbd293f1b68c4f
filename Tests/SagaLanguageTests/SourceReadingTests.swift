import Foundation
import Testing

@testable import SagaLanguage

/// A source file is read whole, straight from its file descriptor: a regular file at its
/// size, a pipe to its end, neither past the 64 MiB limit.
@Suite struct SourceReadingTests {
    /// A scratch folder, removed afterwards.
    static func withFolder(_ body: (URL) throws -> Void) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("saga-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try body(dir)
    }

    /// `count` bytes of lines of text, none alike in its first bytes.
    static func text(_ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var line = 0
        while bytes.count < count {
            bytes += Array("log \(line)\n".utf8)
            line += 1
        }
        return Array(bytes.prefix(count))
    }

    @Test func aRegularFileIsReadWhole() throws {
        try Self.withFolder { dir in
            for count in [0, 1, 65_535, 65_536, 300_001] {
                let file = dir.appendingPathComponent("f\(count).saga")
                try Data(Self.text(count)).write(to: file)
                let read = try SourceLoader.readFromDisk(file.path).get()
                #expect(read == Self.text(count), "\(count) bytes")
            }
        }
    }

    @Test func aPipeIsReadToItsEnd() throws {
        try Self.withFolder { dir in
            let fifo = dir.appendingPathComponent("pipe.saga").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let expected = Self.text(200_000)
            // The writer opens the pipe (waiting for the reader) and closes it when done.
            let writer = Thread {
                guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
                handle.write(Data(expected))
                try? handle.close()
            }
            writer.start()
            let read = try SourceLoader.readFromDisk(fifo).get()
            #expect(read == expected)
        }
    }

    @Test func aFileOverTheLimitOrAFolderIsNotRead() throws {
        try Self.withFolder { dir in
            let big = dir.appendingPathComponent("big.saga")
            #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
            let handle = try FileHandle(forWritingTo: big)
            try handle.truncate(atOffset: UInt64(SourceLoader.maxFileSize + 1))  // sparse: nothing written
            try handle.close()
            guard case .failure(.unreadable(let reason)) = SourceLoader.readFromDisk(big.path) else {
                Issue.record("a file over 64 MiB was read")
                return
            }
            #expect(reason == "it is larger than 64 MiB")
            guard case .failure(.unreadable(let folder)) = SourceLoader.readFromDisk(dir.path) else {
                Issue.record("a folder was read")
                return
            }
            #expect(folder == "it is a folder")
        }
    }
}
