import Foundation
import SagaCore
import SagaRuntime

/// The standard host library of `sagarun`: HTTP requests, processes, files, the environment
/// and the script's arguments, each behind a permission (``HostPermissions``).
///
/// Sagas call these as they call any host function:
///
/// ```
/// let page = call http.get("https://example.com/status")
/// let build = call exec(["swift", "build"], { cwd: "app", timeout: 600000 })
/// call file.write("status.json", { code: page.status })
/// ```
///
/// A call without its permission fails in the saga with a `PermissionError` that names the
/// flag it needs. An app embedding the runtime opts in with a library of its own:
///
/// ```swift
/// let library = HostLibrary(permissions: permissions)
/// let interpreter = Interpreter(program: program, host: library.functions, output: output)
/// _ = await interpreter.run()
/// library.terminateChildren()
/// ```
public struct HostLibrary: Sendable {
    /// The library's functions, to register with an interpreter (merge them with the app's own
    /// with `HostFunctions.merging(_:)`).
    public let functions: HostFunctions
    /// The processes this library's `exec` and `sh` started.
    private let children: ChildProcesses

    /// A library whose functions may touch what `permissions` allow.
    ///
    /// - Parameters:
    ///   - permissions: what the functions may touch.
    ///   - arguments: what `args()` gives: the script's arguments.
    ///   - maxLength: the longest text (UTF-8 bytes) a file, a response or a process's output
    ///     may give; past it the call fails with a `RangeError`.
    public init(permissions: HostPermissions, arguments: [String] = [], maxLength: Int = Value.maxTextBytes) {
        let children = ChildProcesses()
        let context = Context(permissions: permissions, arguments: arguments, maxLength: maxLength, children: children)
        var host = HostFunctions()
        Self.registerFiles(&host, context)
        Self.registerEnvironment(&host, context)
        Self.registerProcesses(&host, context)
        Self.registerHTTP(&host, context)
        self.functions = host
        self.children = children
    }

    /// Kills (SIGKILL) every process that this library's `exec` and `sh` started and that is
    /// still running: call it when the run is over, so that no child outlives it.
    ///
    /// The library starts no process after this (a call fails with `ExecError`, "the run is
    /// over"), so that a call cancelled at the run's end cannot start one late: make a new
    /// library for another run.
    public func terminateChildren() {
        children.terminateAll()
    }

    /// Every function of the library, by name, with the permission it needs (`nil` for none).
    public static let permissionsByName: [String: String?] = [
        "http.request": "--allow-net", "http.get": "--allow-net", "http.post": "--allow-net",
        "exec": "--allow-run", "sh": "--allow-run",
        "file.read": "--allow-read", "file.list": "--allow-read", "file.exists": "--allow-read",
        "file.write": "--allow-write", "file.append": "--allow-write",
        "env": "--allow-env", "args": nil,
    ]

    /// The names of the library's functions, for the checker.
    public static var names: Set<String> { Set(permissionsByName.keys) }

    /// Ignores SIGPIPE, once: a write to a child that has closed its input then fails with
    /// EPIPE instead of ending this process (as servers, swift-nio among them, do).
    static let ignoreBrokenPipes: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    /// What every function of one library instance shares.
    struct Context: Sendable {
        var permissions: HostPermissions
        var arguments: [String]
        var maxLength: Int
        var children: ChildProcesses
    }

    /// The error of a call made without its permission: `{kind: "PermissionError", …}`.
    static func denied(_ what: String, flag: String, value: String) -> SagaError {
        SagaError(
            kind: "PermissionError",
            message: "\(what) needs \(flag) (or \(flag)=\(value)); the run does not allow it")
    }

    /// An error of the library's own kind for `function`: `{kind, message}`.
    static func failure(_ kind: String, _ function: String, _ message: String) -> SagaError {
        SagaError(kind: kind, message: "\(function): \(message)")
    }

    /// Checks that `function` got between `least` and `most` arguments.
    static func expect(_ args: [Value], _ least: Int, _ most: Int, _ function: String) throws(SagaError) {
        guard args.count >= least, args.count <= most else {
            let wanted = least == most ? "\(least)" : "\(least) to \(most)"
            throw failure(
                "TypeError", function,
                "takes \(wanted) argument\(most == 1 ? "" : "s"), got \(args.count)")
        }
    }

    /// The string argument at `index`.
    static func string(_ args: [Value], _ index: Int, _ function: String, _ what: String) throws(SagaError) -> String {
        guard index < args.count, case .string(let s) = args[index] else {
            let got = index < args.count ? args[index].kindName : "nothing"
            throw failure("TypeError", function, "\(what) must be a string, got \(got)")
        }
        return s
    }

    /// The options record at `index`, or an empty one when it is absent or null.
    static func options(_ args: [Value], _ index: Int, _ function: String) throws(SagaError) -> Record {
        guard index < args.count else { return Record() }
        switch args[index] {
        case .null: return Record()
        case .record(let r): return r
        default: throw failure("TypeError", function, "its options must be a record, got \(args[index].kindName)")
        }
    }

    /// The record of strings under `key` in an options record (`headers`, `env`), as pairs in
    /// key order; none when it is absent or null.
    static func strings(_ options: Record, _ key: String, _ function: String) throws(SagaError) -> [(String, String)] {
        switch options[key] {
        case nil, .null?: return []
        case .record(let given)?:
            var pairs: [(String, String)] = []
            for entry in given {
                guard case .string(let value) = entry.value else {
                    throw failure(
                        "TypeError", function, "the values of \(key) must be strings, got \(entry.value.kindName)")
                }
                pairs.append((entry.key, value))
            }
            return pairs
        case let other?: throw failure("TypeError", function, "\(key) must be a record, got \(other.kindName)")
        }
    }

    /// A timeout in milliseconds from an options record, if it has one.
    static func timeout(_ options: Record, _ function: String) throws(SagaError) -> Int? {
        switch options["timeout"] {
        case nil, .null?: return nil
        case .int(let ms)? where ms >= 0: return ms
        case .double(let ms)? where ms >= 0 && ms < 1e15: return Int(ms)
        case let other?:
            throw failure("TypeError", function, "timeout must be milliseconds, got \(other.canonicalJSON)")
        }
    }

    /// Text made from `data`, checked against `maxLength`.
    static func text(_ data: Data, _ context: Context, _ function: String, _ what: String) throws(SagaError) -> String {
        guard data.count <= context.maxLength else {
            throw failure(
                "RangeError", function, "\(what) is \(data.count) bytes, past --max-length \(context.maxLength)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
