import Foundation

/// What the standard host library may touch: the network, processes, files and the
/// environment, each denied, allowed in full, or allowed for a list of hosts, commands, paths
/// or names, as Deno's `--allow-*` flags have it.
///
/// ```swift
/// var permissions = HostPermissions()
/// permissions.read = .only(["/srv/data"])
/// permissions.net = .all
/// let host = HostLibrary.functions(permissions: permissions)
/// ```
public struct HostPermissions: Sendable, Equatable {
    /// One kind of access.
    public enum Grant: Sendable, Equatable {
        /// Nothing of this kind.
        case none
        /// Everything of this kind.
        case all
        /// Only these hosts (`example.com`, `127.0.0.1:8080`), commands (`git`, `/bin/ls`),
        /// paths (a file, or a folder and all below it) or environment variable names.
        case only(Set<String>)

        /// `self` together with `other`: the union of the two.
        public func adding(_ other: Grant) -> Grant {
            switch (self, other) {
            case (.all, _), (_, .all): return .all
            case (.none, let g), (let g, .none): return g
            case (.only(let a), .only(let b)): return .only(a.union(b))
            }
        }
    }

    /// HTTP requests, by host (`--allow-net`).
    public var net: Grant = .none
    /// Processes, by command (`--allow-run`).
    public var run: Grant = .none
    /// Reading files and listing folders, by path (`--allow-read`).
    public var read: Grant = .none
    /// Writing and appending to files, by path (`--allow-write`).
    public var write: Grant = .none
    /// Environment variables, by name (`--allow-env`).
    public var env: Grant = .none

    /// Nothing allowed.
    public init() {}

    /// Everything allowed (`--allow-all`).
    public static var all: HostPermissions {
        var p = HostPermissions()
        (p.net, p.run, p.read, p.write, p.env) = (.all, .all, .all, .all, .all)
        return p
    }

    /// Whether `host` (a URL's host, with its port when the URL has one) may be reached.
    func allowsNet(host: String, port: Int?) -> Bool {
        switch net {
        case .none: return false
        case .all: return true
        case .only(let hosts):
            return hosts.contains(host) || port.map { hosts.contains("\(host):\($0)") } == true
        }
    }

    /// Whether the program at `executable` (a real path, found on the run's own `PATH`) may
    /// run: it must be the very program one of the listed commands names (a name found on the
    /// run's `PATH`, or a path), so `evil/ls` is not `ls`.
    func allowsRun(executable: String, path: String?) -> Bool {
        switch run {
        case .none: return false
        case .all: return true
        case .only(let commands):
            return commands.contains { command in
                ChildProcess.resolve(command, path: path).map(Self.real) == executable
            }
        }
    }

    /// Whether the environment variable `name` may be read.
    func allowsEnv(_ name: String) -> Bool {
        switch env {
        case .none: return false
        case .all: return true
        case .only(let names): return names.contains(name)
        }
    }

    /// Whether `grant` covers the file at `path`: the path itself or a folder above it, after
    /// symbolic links are followed on both sides (a link inside an allowed folder to a file
    /// outside it is outside).
    static func allows(_ grant: Grant, path: String) -> Bool {
        switch grant {
        case .none: return false
        case .all: return true
        case .only(let paths):
            let target = real(path)
            return paths.contains { allowed in
                let root = real(allowed)
                return target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/")
            }
        }
    }

    /// `path` made absolute (from the current folder), with `..`, `.` and symbolic links
    /// resolved; for a path that does not exist yet (a file to write), its folder's.
    static func real(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        if let resolved = realpath(absolute, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let folder = (absolute as NSString).deletingLastPathComponent
        guard folder != absolute, let resolved = realpath(folder, nil) else { return absolute }
        defer { free(resolved) }
        let base = String(cString: resolved)
        return (base == "/" ? "" : base) + "/" + (absolute as NSString).lastPathComponent
    }
}
