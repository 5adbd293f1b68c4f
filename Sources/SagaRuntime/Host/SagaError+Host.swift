import SagaCore
import SagaLanguage

extension SagaError {
    /// The error of a call of a host function nobody registered: for one `program` declares
    /// `extern`, what would provide it.
    static func noHostFunction(_ name: String, in program: Program) -> SagaError {
        if program.externs.contains(where: { $0.name == name }) {
            return SagaError(
                kind: "HostError",
                message: "'\(name)' is declared extern, and nothing provides it here: an app registers it "
                    + "in its HostFunctions, and `sagarun run` takes its results from --mocks FILE or a process "
                    + "given with --host NAME=COMMAND")
        }
        return SagaError(kind: "HostError", message: "no host function named '\(name)' is registered")
    }
}
