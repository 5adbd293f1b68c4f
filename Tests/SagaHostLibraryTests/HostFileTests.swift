import Foundation
import SagaCore
import SagaHostLibrary
import SagaRuntime
import Testing

/// `file.*`, `env` and `args`, against real files and under permissions.
@Suite struct HostFileTests {
    /// Text and JSON written, appended, read back, listed and found.
    @Test func filesAreWrittenReadListedAndFound() async throws {
        try await withFolder { folder in
            var permissions = HostPermissions()
            permissions.read = .only([folder])
            permissions.write = .only([folder])
            let host = HostLibrary(permissions: permissions).functions
            let path = folder + "/notes.txt"
            #expect(try await call(host, "file.exists", [.string(path)]) == false)
            _ = try await call(host, "file.write", [.string(path), "one\n"])
            _ = try await call(host, "file.append", [.string(path), ["n": 2]])
            #expect(try await call(host, "file.read", [.string(path)]) == "one\n{\"n\":2}\n")
            let json = folder + "/data.json"
            _ = try await call(host, "file.write", [.string(json), ["b": [1, 2], "a": "x"]])
            #expect(try await call(host, "file.read", [.string(json), ["json": true]]) == ["a": "x", "b": [1, 2]])
            #expect(try await call(host, "file.list", [.string(folder)]) == ["data.json", "notes.txt"])
            #expect(try await call(host, "file.exists", [.string(path)]) == true)
        }
    }

    /// Without permission, or outside the allowed folder (through `..` too), a call fails
    /// with a `PermissionError` that names the flag, and touches nothing.
    @Test func pathsOutsideTheGrantAreRefused() async throws {
        try await withFolder { folder in
            let inside = folder + "/in"
            try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
            var permissions = HostPermissions()
            permissions.read = .only([inside])
            permissions.write = .only([inside])
            let host = HostLibrary(permissions: permissions).functions
            for path in [folder + "/secret.txt", inside + "/../secret.txt", inside + "x/secret.txt"] {
                let write = await failure(host, "file.write", [.string(path), "x"])
                #expect(write?.kind == "PermissionError")
                #expect(write?.message.contains("--allow-write") == true, "\(write?.message ?? "")")
                let read = await failure(host, "file.read", [.string(path)])
                #expect(read?.kind == "PermissionError")
                #expect(read?.message.contains("--allow-read") == true)
            }
            #expect(!FileManager.default.fileExists(atPath: folder + "/secret.txt"))
            // A link inside the allowed folder to a file outside it is outside.
            try "secret".write(toFile: folder + "/secret.txt", atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(
                atPath: inside + "/link", withDestinationPath: folder + "/secret.txt")
            #expect(await failure(host, "file.read", [.string(inside + "/link")])?.kind == "PermissionError")
            let none = HostLibrary(permissions: HostPermissions()).functions
            #expect(await failure(none, "file.exists", [.string(inside)])?.kind == "PermissionError")
            #expect(await failure(none, "file.list", [.string(inside)])?.kind == "PermissionError")
        }
    }

    /// Missing files, folders where files are wanted, JSON that is not, and text past the limit
    /// are errors that say so.
    @Test func badFilesAreClearErrors() async throws {
        try await withFolder { folder in
            let host = HostLibrary(permissions: .all, maxLength: 8).functions
            #expect(
                await failure(host, "file.read", [.string(folder + "/none")])?.message.contains("no such file") == true)
            #expect(await failure(host, "file.read", [.string(folder)])?.message.contains("is a folder") == true)
            #expect(await failure(host, "file.write", [.string(folder), "x"])?.message.contains("is a folder") == true)
            _ = try await call(host, "file.write", [.string(folder + "/t"), "not json"])
            #expect(await failure(host, "file.read", [.string(folder + "/t"), ["json": true]])?.kind == "JSONError")
            _ = try await call(host, "file.write", [.string(folder + "/big"), "0123456789"])
            #expect(await failure(host, "file.read", [.string(folder + "/big")])?.kind == "RangeError")
            #expect(await failure(host, "file.read", [1])?.kind == "TypeError")
            #expect(
                await failure(host, "file.list", [.string(folder + "/t")])?.message.contains("not a folder") == true)
            let deep = folder + "/new/deep"
            #expect(
                await failure(host, "file.write", [.string(deep + "/f"), "x"])?.message
                    == "file.write: cannot write '\(deep)/f': no folder '\(deep)' (it is not made)")
            #expect(
                await failure(host, "file.append", [.string(folder + "/t/f"), "x"])?.message
                    == "file.append: cannot write '\(folder)/t/f': '\(folder)/t' is not a folder")
        }
    }

    /// `env` reads only the names allowed; `args` gives the script's arguments.
    @Test func theEnvironmentAndArguments() async throws {
        var permissions = HostPermissions()
        permissions.env = .only(["PATH"])
        let host = HostLibrary(permissions: permissions, arguments: ["a", "b c"]).functions
        #expect(try await call(host, "env", ["PATH"]) == .string(ProcessInfo.processInfo.environment["PATH"] ?? ""))
        let denied = await failure(host, "env", ["HOME"])
        #expect(denied?.kind == "PermissionError")
        #expect(denied?.message.contains("--allow-env=HOME") == true)
        let all = HostLibrary(permissions: .all).functions
        #expect(try await call(all, "env", ["SAGAS_SURELY_UNSET_VARIABLE"]) == .null)
        #expect(try await call(host, "args", []) == ["a", "b c"])
    }
}
