import Foundation
import SagaCore
import SagaRuntime

extension HostLibrary {
    /// `file.read`, `file.write`, `file.append`, `file.list` and `file.exists`.
    ///
    /// - `file.read(path)` gives the file's text; `file.read(path, {json: true})` the JSON
    ///   value it holds.
    /// - `file.write(path, data)` replaces the file with `data`, `file.append(path, data)` adds
    ///   `data` at its end: a string as it is, any other value as one line of canonical JSON.
    /// - `file.list(folder)` gives the names in a folder, sorted; `file.exists(path)` whether
    ///   anything is there.
    static func registerFiles(_ host: inout HostFunctions, _ context: Context) {
        host.register("file.read") { args in
            try expect(args, 1, 2, "file.read")
            let path = try string(args, 0, "file.read", "the path")
            let json = try options(args, 1, "file.read")["json"] == .bool(true)
            try checkRead(path, context)
            let data = try readFile(path, "file.read")
            let text = try text(data, context, "file.read", "the file")
            guard json else { return .string(text) }
            do {
                return try JSONReader.parse(text)
            } catch {
                throw failure("JSONError", "file.read", "\(path) is not JSON: \(error)")
            }
        }
        for (name, append) in [("file.write", false), ("file.append", true)] {
            host.register(name) { args in
                try expect(args, 2, 2, name)
                let path = try string(args, 0, name, "the path")
                try checkWrite(path, context)
                let text: String
                if case .string(let s) = args[1] { text = s } else { text = args[1].canonicalJSON + "\n" }
                try writeFile(path, Data(text.utf8), append: append, name)
                return .null
            }
        }
        host.register("file.list") { args in
            try expect(args, 1, 1, "file.list")
            let path = try string(args, 0, "file.list", "the folder")
            try checkRead(path, context)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw failure("FileError", "file.list", "no such folder '\(path)'")
            }
            guard isFolder.boolValue else { throw failure("FileError", "file.list", "'\(path)' is not a folder") }
            do {
                let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
                return .list(names.map { .string($0) })
            } catch {
                throw failure("FileError", "file.list", "cannot list '\(path)': \(error.localizedDescription)")
            }
        }
        host.register("file.exists") { args in
            try expect(args, 1, 1, "file.exists")
            let path = try string(args, 0, "file.exists", "the path")
            try checkRead(path, context)
            return .bool(FileManager.default.fileExists(atPath: path))
        }
    }

    /// Fails unless the run may read `path`.
    static func checkRead(_ path: String, _ context: Context) throws(SagaError) {
        guard HostPermissions.allows(context.permissions.read, path: path) else {
            throw denied("reading '\(path)'", flag: "--allow-read", value: path)
        }
    }

    /// Fails unless the run may write `path`.
    static func checkWrite(_ path: String, _ context: Context) throws(SagaError) {
        guard HostPermissions.allows(context.permissions.write, path: path) else {
            throw denied("writing '\(path)'", flag: "--allow-write", value: path)
        }
    }

    /// The bytes of the regular file at `path`.
    private static func readFile(_ path: String, _ function: String) throws(SagaError) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw failure("FileError", function, "no such file '\(path)'")
        }
        guard !isFolder.boolValue else { throw failure("FileError", function, "'\(path)' is a folder") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw failure("FileError", function, "cannot open '\(path)' for reading")
        }
        defer { try? handle.close() }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw failure("FileError", function, "cannot read '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes `data` to `path`, replacing the file or appending to it (made when missing).
    private static func writeFile(_ path: String, _ data: Data, append: Bool, _ function: String) throws(SagaError) {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists, isFolder.boolValue { throw failure("FileError", function, "'\(path)' is a folder") }
        do {
            if append, exists, let handle = FileHandle(forWritingAtPath: path) {
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: data)
            } else {
                try data.write(to: URL(fileURLWithPath: path), options: append ? [] : .atomic)
            }
        } catch {
            // Foundation's text says a file does not exist: the folder is what is missing.
            let folder = (path as NSString).deletingLastPathComponent
            var parentIsFolder: ObjCBool = false
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &parentIsFolder) {
                throw failure("FileError", function, "cannot write '\(path)': no folder '\(folder)' (it is not made)")
            }
            if !folder.isEmpty, !parentIsFolder.boolValue {
                throw failure("FileError", function, "cannot write '\(path)': '\(folder)' is not a folder")
            }
            throw failure("FileError", function, "cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
