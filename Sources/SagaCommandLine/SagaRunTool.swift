import Foundation
import SagaCore
import SagaHostLibrary
import SagaLanguage
import SagaRuntime

/// The `sagarun` command line as a library: `sagarun`'s `main.swift` calls ``main(_:io:)``,
/// and tests call it in-process with a ``CapturedIO``.
///
/// ```swift
/// let io = CapturedIO()
/// let code = await SagaRunTool.main(["run", "counter.saga", "--virtual-time"], io: io)
/// ```
package enum SagaRunTool {
    /// The version `sagarun --version` prints.
    package static let version = "0.1.0"

    /// Runs the command line `arguments` (without the program name).
    ///
    /// - Returns: the exit code.
    package static func main(_ arguments: [String], io: ToolIO) async -> Int32 {
        do throws(UsageError) {
            return try await dispatch(arguments[...], io).rawValue
        } catch {
            io.err("error: \(error.message)\n")
            io.err("Usage: \(Commands.spec(error.command).usage)\n")
            io.err(
                "  See 'sagarun \(error.command == "sagarun" ? "" : error.command + " ")--help' for more information.\n"
            )
            return ExitCode.usage.rawValue
        }
    }

    private static func dispatch(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        guard let first = args.first else {
            io.err(Commands.overview)
            return .usage
        }
        switch first {
        case "--help", "-h", "help":
            if first == "help", let topic = args.dropFirst().first {
                guard Commands.names.contains(topic) else {
                    throw UsageError("unknown command '\(topic)'", command: "sagarun")
                }
                // `help store verify`: the subcommand's own help, as `store verify --help` gives.
                if topic == "store", let sub = args.dropFirst(2).first {
                    guard StoreCommand.subcommands.contains(sub) else {
                        throw UsageError("unknown store command '\(sub)'", command: "store")
                    }
                    io.out(Commands.spec("store " + sub).helpText)
                    return .success
                }
                io.out(Commands.spec(topic).helpText)
            } else {
                io.out(Commands.overview)
            }
            return .success
        case "--version":
            io.out("sagarun \(version)\n")
            return .success
        case "run":
            return try await RunCommand.main(args.dropFirst(), io)
        case "check":
            return try DeepStack.run { () throws(UsageError) in try CheckCommand.main(args.dropFirst(), io) }
        case "ast":
            return try DeepStack.run { () throws(UsageError) in try ASTCommand.main(args.dropFirst(), io) }
        case "test":
            return try await TestCommand.main(args.dropFirst(), io)
        case "graph":
            return try DeepStack.run { () throws(UsageError) in try GraphCommand.main(args.dropFirst(), io) }
        case "fmt":
            return try DeepStack.run { () throws(UsageError) in try FormatCommand.main(args.dropFirst(), io) }
        case "store":
            return try await StoreCommand.main(args.dropFirst(), io)
        default:
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)'; a saga file or a command comes first", command: "sagarun")
            }
            if !first.hasSuffix(".saga"), !FileManager.default.fileExists(atPath: first) {
                throw UsageError(
                    "unknown command '\(first)'; commands are \(Commands.names.joined(separator: ", "))"
                        + Suggestions.didYouMean(first, in: Commands.names),
                    command: "sagarun")
            }
            return try await RunCommand.main(args, io)
        }
    }

    /// Compiles a file for a command, printing diagnostics; `nil` with the exit code when it
    /// cannot run.
    static func compile(_ path: String, _ io: ToolIO) -> (Program?, ExitCode) {
        let result = io.compile(path, with: frontend(io))
        let code = report(result, of: path, io)
        guard code == .success, let program = result.program else { return (nil, code == .success ? .dataError : code) }
        return (program, .success)
    }

    /// The frontend of every command: it knows the standard host library's functions and the
    /// host functions `io` gives.
    static func frontend(_ io: ToolIO) -> Frontend {
        Frontend(hostFunctions: io.hostFunctions.names.union(HostLibrary.names))
    }

    /// Checks a file for its diagnostics alone (`Frontend.check(path:)`, which never holds
    /// the whole tree), printing them; the exit code `sagarun check` gives, and what the check
    /// found.
    static func check(_ path: String, _ io: ToolIO) -> (ExitCode, CompileResult) {
        let result = frontend(io).check(path: path)
        return (report(result, of: path, io), result)
    }

    /// The permission flags the standard host library functions among `callees` need, each
    /// with the functions that need it, in flag order.
    static func permissions(for callees: Set<String>) -> [(flag: String, functions: [String])] {
        var byFlag: [String: [String]] = [:]
        for name in callees {
            if case .some(.some(let flag)) = HostLibrary.permissionsByName[name] {
                byFlag[flag, default: []].append(name)
            }
        }
        return byFlag.keys.sorted().map { ($0, byFlag[$0, default: []].sorted()) }
    }

    /// Prints the diagnostics of a compile or a check of `path`: the exit code for a file that
    /// cannot be read, one with errors, or one that compiles.
    private static func report(_ result: CompileResult, of path: String, _ io: ToolIO) -> ExitCode {
        let colors = io.errorIsTerminal
        io.err(result.diagnostics.map { $0.rendered(files: result.files, colors: colors) + "\n" }.joined())
        if result.unreadableFiles.contains(path) || (!result.unreadableFiles.isEmpty && result.hasErrors) {
            if result.diagnostics.isEmpty {
                for file in result.unreadableFiles { io.err("error: cannot read '\(file)'\n") }
            }
            return .noInput
        }
        return result.hasErrors ? .dataError : .success
    }
}
