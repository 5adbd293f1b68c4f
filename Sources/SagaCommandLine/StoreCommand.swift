import SagaCore
import SagaPersistence

/// `sagarun store verify|compact|recover [DIR]`: check a file store without changing it,
/// rewrite it as one snapshot and an empty log, or rebuild a damaged one from every record
/// whose checksum holds.
enum StoreCommand {
    static let subcommands = ["verify", "compact", "recover"]

    static func main(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        guard let first = args.first else {
            throw UsageError("missing the store command: verify, compact or recover", command: "store")
        }
        switch first {
        case "-h", "--help", "help":
            io.out(Commands.store.helpText)
            return .success
        case "verify":
            return try verify(args.dropFirst(), io)
        case "compact":
            return try await compact(args.dropFirst(), io)
        case "recover":
            return try recover(args.dropFirst(), io)
        default:
            throw UsageError(
                "unknown store command '\(first)'; store commands are \(subcommands.joined(separator: ", "))",
                command: "store")
        }
    }

    /// What to do about a damaged store (`error` of code `.corrupt`): the line that names
    /// `store recover`; empty for any other error.
    static func recoveryHint(_ error: StoreError, directory: String) -> String {
        guard error.code == .corrupt else { return "" }
        return "note: 'sagarun store recover \(directory)' rebuilds the store from every record that is still whole, "
            + "keeping the damaged files beside it\n"
    }

    /// The folder argument: at most one, `.sagastore` by default (as `run --store`).
    private static func folder(_ parsed: Arguments, command: String) throws(UsageError) -> String {
        guard parsed.positionals.count <= 1 else {
            throw UsageError("\(command) takes one store folder; got \(parsed.positionals.count)", command: command)
        }
        return parsed.positionals.first ?? ".sagastore"
    }

    private static func verify(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.storeVerify.parse(args, io) else { return .success }
        let directory = try folder(parsed, command: "store verify")
        let format = parsed.options["--format"] ?? "text"
        guard format == "text" || format == "json" else {
            throw UsageError("--format is text or json, not '\(format)'", command: "store verify")
        }
        let report = FileStore.verify(directory: directory, options: .init(fileSystem: io.storeFileSystem))
        if format == "json" {
            io.out(json(report).canonicalJSON + "\n")
        } else {
            io.out(text(report))
            for warning in report.warnings { io.err("warning: \(warning.description)\n") }
            if let problem = report.problem {
                io.err("error: \(problem.description)\n" + recoveryHint(problem, directory: directory))
            }
        }
        if report.problem?.code == .missing { return .noInput }
        return report.isSound ? .success : .ioError
    }

    private static func recover(_ args: ArraySlice<String>, _ io: ToolIO) throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.storeRecover.parse(args, io) else { return .success }
        let directory = try folder(parsed, command: "store recover")
        do throws(StoreError) {
            let report = try FileStore.salvage(directory: directory, options: .init(fileSystem: io.storeFileSystem))
            var line = "\(directory): recovered \(counted(report.elements, "element")) from the records whose "
            line += "checksums hold (\(counted(report.records, "log record")) replayed)"
            if report.skippedBytes > 0 {
                line += "; \(counted(report.skippedBytes, "damaged byte")) passed over"
            }
            if report.recordsMissingBefore > 0 {
                line += "; records 1 to \(report.recordsMissingBefore) are in no file here (a snapshot removed?)"
            }
            if report.lostSnapshotElements > 0 {
                line += "; \(counted(report.lostSnapshotElements, "element")) the snapshot lists could not be read"
            }
            if report.orphanedElements > 0 {
                line += "; \(counted(report.orphanedElements, "element")) of a damaged entity record passed over"
            }
            line += "\n"
            for name in report.unreadableFiles {
                line += "  \(name): no whole record in it (a stray file, or damaged throughout)\n"
            }
            for (file, keptAs) in report.keptFiles {
                line += "  \(file) is kept as \(keptAs), as it was; remove it once nothing in it is wanted\n"
            }
            io.out(line)
            return .success
        } catch {
            io.err("error: cannot recover the store '\(directory)': \(error.description)\n")
            return error.code == .missing ? .noInput : .ioError
        }
    }

    private static func compact(_ args: ArraySlice<String>, _ io: ToolIO) async throws(UsageError) -> ExitCode {
        guard let parsed = try Commands.storeCompact.parse(args, io) else { return .success }
        let directory = try folder(parsed, command: "store compact")
        do throws(StoreError) {
            let report = try await FileStore.compact(
                directory: directory, options: .init(fileSystem: io.storeFileSystem))
            var line = "\(directory): compacted: \(counted(report.elements, "element"))"
            line += "; \(report.bytesBefore) bytes before, \(report.bytesAfter) after\n"
            if report.tornTailBytes > 0 {
                line += "  cut a torn tail of \(report.tornTailBytes) bytes "
                if let keeper = report.tornTailKeeper {
                    line += "(a write a crash interrupted, or a damaged last record), kept in \(keeper)\n"
                } else {
                    line += "(zeros written ahead)\n"
                }
            }
            io.out(line)
            return .success
        } catch {
            io.err(
                "error: cannot compact the store '\(directory)': \(error.description)\n"
                    + recoveryHint(error, directory: directory))
            return error.code == .missing ? .noInput : .ioError
        }
    }
}
